import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLines, type NumberedLine } from "./read-lines";

let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "read-lines-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function linesOf(content: string | Buffer): Promise<NumberedLine[]> {
  const file = path.join(dir, `f-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(file, content);
  const lines: NumberedLine[] = [];
  for await (const line of readLines(file)) {
    lines.push(line);
  }
  return lines;
}

describe("readLines", () => {
  it("splits on \\n, drops a trailing \\r and numbers every physical line", async () => {
    expect(await linesOf("a\r\n\r\nb\nc")).toEqual([
      { line: "a", lineNo: 1 },
      { line: "", lineNo: 2 },
      { line: "b", lineNo: 3 },
      { line: "c", lineNo: 4 },
    ]);
  });

  it("does not invent a line after a final newline, and yields nothing for an empty file", async () => {
    expect(await linesOf("a\n")).toEqual([{ line: "a", lineNo: 1 }]);
    expect(await linesOf("")).toEqual([]);
  });

  it("passes a byte-order mark through to the caller", async () => {
    expect(await linesOf("\uFEFFx\n")).toEqual([{ line: "\uFEFFx", lineNo: 1 }]);
  });

  it("joins lines and multi-byte characters across 1 MiB chunks", async () => {
    // 1 MiB - 1 ASCII bytes, then "é" (2 bytes) straddles the chunk boundary.
    const long = `${"x".repeat(1024 * 1024 - 1)}é${"y".repeat(1024 * 1024)}`;
    const lines = await linesOf(`${long}\nshort\n`);
    expect(lines.map((line) => line.lineNo)).toEqual([1, 2]);
    expect(lines[0]?.line).toBe(long);
    expect(lines[1]?.line).toBe("short");
  });

  it("throws on a line that is not valid UTF-8, naming it, instead of substituting U+FFFD", async () => {
    const file = path.join(dir, "bad-utf8.txt");
    await writeFile(file, Buffer.from([0x61, 0x0a, 0xc3, 0x28, 0x0a]));
    const seen: NumberedLine[] = [];
    await expect(
      (async () => {
        for await (const line of readLines(file)) seen.push(line);
      })(),
    ).rejects.toThrow(`${file}:2: not valid UTF-8`);
    expect(seen).toEqual([{ line: "a", lineNo: 1 }]);
  });

  it("throws when the file cannot be read", async () => {
    await expect(readLines(path.join(dir, "missing")).next()).rejects.toThrow(/ENOENT/);
  });
});
