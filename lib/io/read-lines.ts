import { createReadStream } from "node:fs";

/**
 * Streams a UTF-8 text file line by line, so a large upload never has to be
 * one string. Lines are split on "\n"; a trailing "\r" is dropped, so "\r\n"
 * files read the same. A final "\n" ends the last line rather than starting an
 * empty one. Line numbers are 1-based and count every physical line,
 * blank ones included. A byte-order mark on line 1 is passed through untouched:
 * the consumer decides (the prediction validator ignores it). Invalid UTF-8
 * bytes become U+FFFD. Read errors (missing file, permissions) are thrown.
 */

export type NumberedLine = { line: string; lineNo: number };

const CHUNK_BYTES = 1024 * 1024;

function withoutCarriageReturn(text: string): string {
  return text.endsWith("\r") ? text.slice(0, -1) : text;
}

export async function* readLines(path: string): AsyncGenerator<NumberedLine, void, undefined> {
  const stream = createReadStream(path, { encoding: "utf8", highWaterMark: CHUNK_BYTES });
  let pending = "";
  let lineNo = 0;
  for await (const chunk of stream) {
    const text = chunk as string;
    let end = text.indexOf("\n");
    if (end === -1) {
      // A line longer than a chunk: keep appending, search only the new text.
      pending += text;
      continue;
    }
    lineNo += 1;
    yield { line: withoutCarriageReturn(pending + text.slice(0, end)), lineNo };
    let start = end + 1;
    end = text.indexOf("\n", start);
    while (end !== -1) {
      lineNo += 1;
      yield { line: withoutCarriageReturn(text.slice(start, end)), lineNo };
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    pending = text.slice(start);
  }
  if (pending.length > 0) {
    lineNo += 1;
    yield { line: withoutCarriageReturn(pending), lineNo };
  }
}
