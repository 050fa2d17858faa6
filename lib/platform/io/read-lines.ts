import { decodeUtf8Line } from "@/lib/core/scoring/decode-utf8-line";
import { readLineBytes, type ByteSource } from "./read-line-bytes";

/**
 * Streams a UTF-8 text file line by line, so a large file never has to be one
 * string: readLineBytes (split on "\n", a trailing "\r" dropped, 1-based line
 * numbers counting blank lines) with each line decoded strictly. A byte-order
 * mark on line 1 is passed through untouched: the consumer decides. A line
 * that is not valid UTF-8 throws an error naming it (files from outside go
 * through validatePredictionFile, which reports such lines as problems). Read
 * errors (missing file, permissions) are thrown.
 */

export type NumberedLine = { line: string; lineNo: number };

export async function* readLines(source: ByteSource, name = typeof source === "string" ? source : "stored file"): AsyncGenerator<NumberedLine, void, undefined> {
  for await (const { bytes, lineNo } of readLineBytes(source)) {
    const line = bytes === null ? null : decodeUtf8Line(bytes);
    if (line === null) {
      throw new Error(`${name}:${lineNo}: not valid UTF-8`);
    }
    yield { line, lineNo };
  }
}
