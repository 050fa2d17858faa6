import { createHash } from "node:crypto";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readRelease } from "@/lib/platform/io/read-release";

const META = `${JSON.stringify({ name: "irc-bench", version: "1.0", description: "fixture" }, null, 2)}\n`;

function entity(qid: string, name: string): string {
  return JSON.stringify({ qid, name, type: "Place", aliases: [], description: "", description_wiki: "" });
}

function sample(id: string, qid: string, implicit = "I grew up near a small town in Ohio."): string {
  return JSON.stringify({ id, qid, collection: "Regional", implicit_text: implicit, explicit_text: "e" });
}

const FILES: Record<string, string> = {
  "dataset.json": META,
  "kb.jsonl": `${entity("Q1", "Ardenhill")}\n${entity("Q2", "Kellerton")}\n${entity("Q3", "Brookmere")}\n`,
  "train.jsonl": `${sample("irc-000001", "Q1")}\n`,
  "dev.jsonl": `${sample("irc-000002", "Q2")}\n`,
  "test.jsonl": `${sample("irc-000003", "Q3")}\n`,
};

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "irc-read-release-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function writeFixture(files: Record<string, string | Buffer | undefined>): Promise<void> {
  for (const [name, content] of Object.entries(files)) {
    if (content !== undefined) {
      await writeFile(path.join(dir, name), content);
    }
  }
}

describe("readRelease", () => {
  it("reads a release and reports the SHA-256 and size of every file", async () => {
    await writeFixture(FILES);
    const result = await readRelease(dir);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.release.entities.map((e) => e.qid)).toEqual(["Q1", "Q2", "Q3"]);
    expect(result.release.samples.dev.map((s) => s.id)).toEqual(["irc-000002"]);
    expect(result.leakage).toEqual([]);
    const expected = Object.fromEntries(
      Object.entries(FILES).map(([name, content]) => [
        name,
        { sha256: createHash("sha256").update(content).digest("hex"), bytes: Buffer.byteLength(content) },
      ]),
    );
    expect(result.release.files).toEqual(expected);
  });

  it("accepts a BOM, CRLF, blank lines and no final newline", async () => {
    await writeFixture({
      ...FILES,
      "train.jsonl": `\uFEFF${sample("irc-000001", "Q1")}\r\n\r\n${sample("irc-000004", "Q1")}`,
    });
    const result = await readRelease(dir);
    expect(result.ok && result.release.samples.train.map((s) => s.id)).toEqual(["irc-000001", "irc-000004"]);
  });

  it("splits lines correctly across read chunks with multi-byte characters", async () => {
    const implicit = "Ich erinnere mich an Zürich, Café und 東京 🚂 ".repeat(40);
    // About 2.9 MB: several 1 MiB read chunks, each ending inside a line.
    const lines = Array.from({ length: 1500 }, (_, index) => sample(`irc-${String(index + 10).padStart(6, "0")}`, "Q1", implicit));
    await writeFixture({ ...FILES, "train.jsonl": `${lines.join("\n")}\n` });
    const result = await readRelease(dir);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.release.samples.train).toHaveLength(1500);
    expect(result.release.samples.train.every((s) => s.implicit_text === implicit)).toBe(true);
  });

  it("finds a line that is not UTF-8 past the first read chunk by its number, and skips digests when asked", async () => {
    const implicit = "Ich erinnere mich an Zürich und 東京 ".repeat(60);
    const lines = Array.from({ length: 1200 }, (_, index) => Buffer.from(sample(`irc-${String(index + 10).padStart(6, "0")}`, "Q1", implicit)));
    lines[1000] = Buffer.from([0x7b, 0xc3, 0x28, 0x7d]);
    const train = Buffer.concat(lines.flatMap((line) => [line, Buffer.from("\n")]));
    expect(train.length).toBeGreaterThan(2 * 1024 * 1024);
    await writeFixture({ ...FILES, "train.jsonl": train });
    const result = await readRelease(dir, { isDigestSkipped: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([{ file: "train.jsonl", line: 1001, message: "line is not valid UTF-8" }]);
    const valid = Buffer.concat(lines.filter((_, index) => index !== 1000).flatMap((line) => [line, Buffer.from("\n")]));
    await writeFixture({ ...FILES, "train.jsonl": valid });
    const read = await readRelease(dir, { isDigestSkipped: true });
    expect(read.ok && read.release.samples.train).toHaveLength(1199);
    expect(read.ok && Object.keys(read.release.files)).toEqual(["dataset.json"]);
  });

  it("reports missing files without a line, and all problems at once", async () => {
    await writeFixture({ ...FILES, "kb.jsonl": undefined, "test.jsonl": undefined, "dev.jsonl": "{bad\n" });
    const result = await readRelease(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.file, p.line, p.message.split(":")[0]])).toEqual([
      ["kb.jsonl", undefined, "missing file"],
      ["dev.jsonl", 1, "malformed JSON"],
      ["test.jsonl", undefined, "missing file"],
    ]);
  });

  it("reads only the requested splits", async () => {
    await writeFixture({ ...FILES, "train.jsonl": "not json at all\n", "test.jsonl": undefined });
    const result = await readRelease(dir, { splits: ["dev"] });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.release.samples).toEqual({ train: [], dev: [expect.objectContaining({ id: "irc-000002" })], test: [] });
    expect(Object.keys(result.release.files).sort()).toEqual(["dataset.json", "dev.jsonl", "kb.jsonl"]);
  });

  it("rejects a public test file as a gold release", async () => {
    const publicTest = `${JSON.stringify({ id: "irc-000003", collection: "Regional", implicit_text: "x" })}\n`;
    await writeFixture({ ...FILES, "test.jsonl": publicTest });
    const result = await readRelease(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toHaveLength(1);
    expect(result.problems[0]).toMatchObject({ file: "test.jsonl", line: 1 });
    expect(result.problems[0]?.message).toMatch(/public \(participant\) file/);
  });

  it("reports each line that is not UTF-8 and goes on checking the rest", async () => {
    const bad = Buffer.concat([Buffer.from(`${sample("irc-000002", "Q2")}\n`), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]), Buffer.from("{oops\n")]);
    await writeFixture({ ...FILES, "dev.jsonl": bad });
    const result = await readRelease(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.file, p.line, p.message.split(":")[0]])).toEqual([
      ["dev.jsonl", 2, "line is not valid UTF-8"],
      ["dev.jsonl", 3, "malformed JSON"],
    ]);
  });

  it("reports a missing directory and a path that is not a directory", async () => {
    const missing = path.join(dir, "nope");
    expect(await readRelease(missing)).toEqual({
      ok: false,
      problems: [{ file: missing, message: "release directory does not exist" }],
    });
    await writeFixture({ "plain.txt": "x" });
    const plain = path.join(dir, "plain.txt");
    expect(await readRelease(plain)).toEqual({
      ok: false,
      problems: [{ file: plain, message: "is not a directory; a release is a directory" }],
    });
  });

  it("reports a directory in place of a file", async () => {
    await writeFixture({ ...FILES, "kb.jsonl": undefined });
    await mkdir(path.join(dir, "kb.jsonl"));
    const result = await readRelease(dir);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([{ file: "kb.jsonl", message: "is a directory, expected a file" }]);
  });
});

describe("readRelease on a participant's folder of site downloads (isMetaOptional)", () => {
  const siteNames = {
    "irc-bench-demo-1.0-kb.jsonl": FILES["kb.jsonl"],
    "irc-bench-demo-1.0-dev.jsonl": FILES["dev.jsonl"],
  };

  it("reads irc-bench-demo-1.0-dev.jsonl and -kb.jsonl as dev.jsonl and kb.jsonl", async () => {
    await writeFixture(siteNames);
    const result = await readRelease(dir, { splits: ["dev"], isMetaOptional: true });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.release.samples.dev.map((s) => s.id)).toEqual(["irc-000002"]);
    expect(Object.keys(result.release.files).sort()).toEqual(["dev.jsonl", "kb.jsonl"]);
    expect(result.release.files["dev.jsonl"]?.bytes).toBe(Buffer.byteLength(FILES["dev.jsonl"] ?? ""));
  });

  it("names the file as it is on disk in a line's problem", async () => {
    await writeFixture({ ...siteNames, "irc-bench-demo-1.0-dev.jsonl": "{oops\n" });
    const result = await readRelease(dir, { splits: ["dev"], isMetaOptional: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems.map((p) => [p.file, p.line])).toEqual([["irc-bench-demo-1.0-dev.jsonl", 1]]);
  });

  it("says what it looked for when neither name is there", async () => {
    await writeFixture({ "irc-bench-demo-1.0-kb.jsonl": FILES["kb.jsonl"] });
    const result = await readRelease(dir, { splits: ["dev"], isMetaOptional: true });
    expect(result).toEqual({
      ok: false,
      problems: [
        {
          file: "dev.jsonl",
          message: "missing file: looked for dev.jsonl or a site download named *-dev.jsonl (such as irc-bench-demo-1.0-dev.jsonl)",
        },
      ],
    });
  });

  it("refuses to guess between two releases' downloads", async () => {
    await writeFixture({ ...siteNames, "irc-bench-1.1-dev.jsonl": FILES["dev.jsonl"] });
    const result = await readRelease(dir, { splits: ["dev"], isMetaOptional: true });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([
      {
        file: "dev.jsonl",
        message:
          "missing file: no dev.jsonl, and several site downloads could be it (irc-bench-1.1-dev.jsonl, irc-bench-demo-1.0-dev.jsonl); keep one release's files in the folder or rename one to dev.jsonl",
      },
    ]);
  });

  it("prefers the plain name, and a maintainer's release never takes a download name", async () => {
    await writeFixture({ ...FILES, "irc-bench-demo-1.0-dev.jsonl": "{oops\n" });
    expect((await readRelease(dir, { splits: ["dev"], isMetaOptional: true })).ok).toBe(true);
    await rm(path.join(dir, "dev.jsonl"));
    const result = await readRelease(dir, { splits: ["dev"] });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.problems).toEqual([{ file: "dev.jsonl", message: "missing file" }]);
  });
});
