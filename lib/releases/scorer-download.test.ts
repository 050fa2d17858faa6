import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/dataset/download/irc-bench-score.mjs/route";
import { readScorerFile, serveScorer } from "@/lib/releases/scorer-download";

/**
 * The scorer download through the route handler itself, on the bundle that
 * scripts/build-cli.mjs writes (built here if stale): the exact bytes, their
 * SHA-256 in a header and as a strong ETag, and a 404 that says how to build
 * it when the file is missing. No database: the route reads one file.
 */

const ROOT = path.resolve(__dirname, "..", "..");
const BUNDLE = path.join(ROOT, "dist", "cli", "irc-bench-score.mjs");
const URL_PATH = "http://localhost/dataset/download/irc-bench-score.mjs";

let expected: Buffer;
let expectedSha256: string;

beforeAll(async () => {
  await promisify(execFile)(process.execPath, [path.join(ROOT, "scripts", "build-cli.mjs"), "--if-stale"], { cwd: ROOT });
  expected = await readFile(BUNDLE);
  expectedSha256 = createHash("sha256").update(expected).digest("hex");
}, 60_000);

describe("GET /dataset/download/irc-bench-score.mjs", () => {
  it("serves the built bundle byte for byte, with its SHA-256, length and file name", async () => {
    const response = await GET(new Request(URL_PATH));
    expect(response.status).toBe(200);
    const body = Buffer.from(await response.arrayBuffer());
    expect(body.equals(expected)).toBe(true);
    expect(response.headers.get("x-content-sha256")).toBe(expectedSha256);
    expect(response.headers.get("etag")).toBe(`"${expectedSha256}"`);
    expect(response.headers.get("content-length")).toBe(String(expected.length));
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="irc-bench-score.mjs"');
    expect(response.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    expect(body.subarray(0, 20).toString("utf8")).toBe("#!/usr/bin/env node\n");
  });

  it("answers 304 with no body to a matching If-None-Match", async () => {
    const response = await GET(new Request(URL_PATH, { headers: { "If-None-Match": `"${expectedSha256}"` } }));
    expect(response.status).toBe(304);
    expect(await response.text()).toBe("");
  });

  it("answers 404 with how to build it when the bundle is missing, and the page gets null", async () => {
    const missing = path.join(ROOT, "dist", "cli", "no-such-scorer.mjs");
    expect(await readScorerFile(missing)).toBeNull();
    await expect(serveScorer(new Request(URL_PATH), missing)).rejects.toMatchObject({
      code: "not_found",
      message: expect.stringContaining("npm run build:cli"),
    });
  });
});
