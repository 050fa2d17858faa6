import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readLineBytes, type ByteLine } from "./read-line-bytes";

let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "read-line-bytes-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

type Shown = { lineNo: number; text: string | null; byteLength: number };

async function linesOf(content: string | Buffer, maxLineBytes?: number): Promise<Shown[]> {
  const file = path.join(dir, `f-${Math.random().toString(36).slice(2)}.txt`);
  await writeFile(file, content);
  const lines: Shown[] = [];
  for await (const line of readLineBytes(file, { maxLineBytes })) {
    lines.push(show(line));
  }
  return lines;
}

function show(line: ByteLine): Shown {
  return { lineNo: line.lineNo, text: line.bytes === null ? null : Buffer.from(line.bytes).toString("latin1"), byteLength: line.byteLength };
}

describe("readLineBytes", () => {
  it("splits on 0x0A, drops a trailing 0x0D and numbers every physical line", async () => {
    expect(await linesOf("a\r\n\r\nbc\nd")).toEqual([
      { lineNo: 1, text: "a", byteLength: 1 },
      { lineNo: 2, text: "", byteLength: 0 },
      { lineNo: 3, text: "bc", byteLength: 2 },
      { lineNo: 4, text: "d", byteLength: 1 },
    ]);
  });

  it("does not invent a line after a final newline, and yields nothing for an empty file", async () => {
    expect(await linesOf("a\n")).toEqual([{ lineNo: 1, text: "a", byteLength: 1 }]);
    expect(await linesOf("")).toEqual([]);
  });

  it("keeps bytes as they are: a BOM, invalid UTF-8, a \\r inside the line", async () => {
    const lines = await linesOf(Buffer.from([0xef, 0xbb, 0xbf, 0x78, 0x0a, 0xc3, 0x28, 0x0d, 0x79, 0x0a]));
    expect(lines).toEqual([
      { lineNo: 1, text: "\u00ef\u00bb\u00bfx", byteLength: 4 },
      { lineNo: 2, text: "\u00c3(\ry", byteLength: 4 },
    ]);
  });

  it("measures but does not keep a line over the limit, and goes on with the next", async () => {
    // Limit 4: "abcd" (4) is kept, "abcd\r" is 4 bytes plus its terminator, "abcde" (5) is over.
    expect(await linesOf("abcd\nabcd\r\nabcde\nok\nabcde\r\n", 4)).toEqual([
      { lineNo: 1, text: "abcd", byteLength: 4 },
      { lineNo: 2, text: "abcd", byteLength: 4 },
      { lineNo: 3, text: null, byteLength: 5 },
      { lineNo: 4, text: "ok", byteLength: 2 },
      { lineNo: 5, text: null, byteLength: 5 },
    ]);
  });

  it("measures a line over the limit that spans several 1 MiB chunks", async () => {
    // 3 MiB + 7 bytes on one line, then a short line; limit 64 KiB.
    const huge = 3 * 1024 * 1024 + 7;
    const lines = await linesOf(`${"x".repeat(huge)}\r\nshort`, 64 * 1024);
    expect(lines).toEqual([
      { lineNo: 1, text: null, byteLength: huge },
      { lineNo: 2, text: "short", byteLength: 5 },
    ]);
  });

  it("joins a line across 1 MiB chunks without a limit, with \\r\\n split between chunks", async () => {
    // The first chunk ends with "\r"; its "\n" starts the second chunk.
    const first = "y".repeat(1024 * 1024 - 1);
    const lines = await linesOf(`${first}\r\nz`);
    expect(lines.map((line) => [line.lineNo, line.byteLength])).toEqual([
      [1, 1024 * 1024 - 1],
      [2, 1],
    ]);
    expect(lines[0]?.text).toBe(first);
  });

  it("throws when the file cannot be read", async () => {
    await expect(readLineBytes(path.join(dir, "missing")).next()).rejects.toThrow(/ENOENT/);
  });
});
