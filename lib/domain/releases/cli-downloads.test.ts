import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { GET as getClient } from "@/app/dataset/download/irc-bench-client.mjs/route";
import { GET as getScorer } from "@/app/dataset/download/irc-bench-score.mjs/route";
import { CLI_TOOLS, readCliTool, serveCliTool } from "@/lib/domain/releases/cli-downloads";

/**
 * The tool downloads through the route handlers themselves, on the bundles
 * that scripts/build/build-cli.mjs writes (built here if stale): the exact bytes,
 * their SHA-256 in a header and as a strong ETag, and a 404 that says how to
 * build one when the file is missing. No database: the routes read one file.
 */

const ROOT = path.resolve(__dirname, "..", "..", "..");

const CASES = [
  { name: "irc-bench-score.mjs", get: getScorer },
  { name: "irc-bench-client.mjs", get: getClient },
] as const;

const expected = new Map<string, { bytes: Buffer; sha256: string }>();

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [path.join(ROOT, "scripts", "build", "build-cli.mjs"), "--if-stale"], { cwd: ROOT });
  for (const { name } of CASES) {
    const bytes = await readFile(path.join(ROOT, "dist", "cli", name));
    expected.set(name, { bytes, sha256: createHash("sha256").update(bytes).digest("hex") });
  }
}, 60_000);

describe.each(CASES)("GET /dataset/download/$name", ({ name, get }) => {
  const url = `http://localhost/dataset/download/${name}`;

  it("serves the built bundle byte for byte, with its SHA-256, length and file name", async () => {
    const { bytes, sha256 } = expected.get(name)!;
    const response = await get(new Request(url));
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(bytes)).toBe(true);
    expect(response.headers.get("x-content-sha256")).toBe(sha256);
    expect(response.headers.get("etag")).toBe(`"${sha256}"`);
    expect(response.headers.get("content-length")).toBe(String(bytes.length));
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${name}"`);
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(body.subarray(0, 20).toString("utf8")).toBe("#!/usr/bin/env node\n");
  });

  it("answers 304 with no body to a matching If-None-Match", async () => {
    const response = await get(new Request(url, { headers: { "If-None-Match": `"${expected.get(name)!.sha256}"` } }));
    expect(response.status).toBe(304);
    expect(await response.text()).toBe("");
  });
});

describe("a tool that was not built", () => {
  it("answers 404 with how to build it, and the page gets null", async () => {
    const missing = { ...CLI_TOOLS.client, file: path.join(ROOT, "dist", "cli", "no-such-client.mjs") };
    expect(await readCliTool(missing)).toBeNull();
    await expect(serveCliTool(new Request("http://localhost/dataset/download/irc-bench-client.mjs"), missing)).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("npm run build:cli"),
    });
  });
});
