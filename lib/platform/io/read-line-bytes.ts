import { createReadStream } from "node:fs";

/**
 * Streams a file as lines of bytes, so each line can be measured and decoded
 * on its own (protocol section 4: a line that is not valid UTF-8 or longer than
 * 64 KiB is a problem of that line, with its number). Lines are split on 0x0A;
 * a trailing 0x0D is dropped, so "\r\n" files read the same. A final "\n" ends
 * the last line rather than starting an empty one. Line numbers are 1-based and
 * count every physical line, blank ones included. Nothing is decoded or
 * stripped here (a byte-order mark stays in line 1's bytes).
 *
 * With `maxLineBytes`, a longer line is not accumulated beyond the limit: its
 * `bytes` is null and `byteLength` tells how long it was, so memory stays
 * bounded whatever the file holds. Read errors (missing file, permissions) are
 * thrown.
 *
 * The source is a path or any stream of byte chunks (a stored file read from
 * the file store, chunk by chunk).
 */

export type ByteLine = {
  lineNo: number;
  /** The line without its terminator; null when it is longer than `maxLineBytes`. */
  bytes: Uint8Array | null;
  /** Length in bytes without the terminator ("\n" or "\r\n"). */
  byteLength: number;
};

type ReadLineBytesOptions = {
  /** Lines longer than this many bytes are measured but not kept. Default: no limit. */
  maxLineBytes?: number;
};

const CHUNK_BYTES = 1024 * 1024;
const LF = 0x0a;
const CR = 0x0d;

/** A line in progress across chunks: the kept pieces, its length and its last byte. */
class PendingLine {
  private pieces: Buffer[] = [];
  private keptBytes = 0;
  length = 0;
  lastByte = -1;

  constructor(private readonly limit: number) {}

  /** `isChunkTail`: the piece ends a chunk, so it is copied rather than keeping the whole chunk alive. */
  append(piece: Buffer, isChunkTail = false): void {
    if (piece.length === 0) {
      return;
    }
    this.length += piece.length;
    this.lastByte = piece[piece.length - 1] ?? -1;
    // Keep at most limit + 1 bytes: enough to tell a line of exactly `limit`
    // bytes plus "\r" from a longer one.
    const room = this.limit + 1 - this.keptBytes;
    if (room <= 0) {
      return;
    }
    const kept = piece.length > room ? piece.subarray(0, room) : piece;
    this.pieces.push(isChunkTail ? Buffer.from(kept) : kept);
    this.keptBytes += kept.length;
  }

  finish(lineNo: number): ByteLine {
    const hasCr = this.lastByte === CR;
    const byteLength = hasCr ? this.length - 1 : this.length;
    let bytes: Uint8Array | null = null;
    if (byteLength <= this.limit) {
      const whole = this.pieces.length === 1 ? (this.pieces[0] ?? Buffer.alloc(0)) : Buffer.concat(this.pieces);
      bytes = whole.subarray(0, byteLength);
    }
    this.pieces = [];
    this.keptBytes = 0;
    this.length = 0;
    this.lastByte = -1;
    return { lineNo, bytes, byteLength };
  }
}

export type ByteSource = string | AsyncIterable<Uint8Array>;

function asBuffer(chunk: Uint8Array): Buffer {
  return Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
}

export async function* readLineBytes(source: ByteSource, options: ReadLineBytesOptions = {}): AsyncGenerator<ByteLine, void, undefined> {
  const pending = new PendingLine(options.maxLineBytes ?? Number.MAX_SAFE_INTEGER - 1);
  const stream: AsyncIterable<Uint8Array> = typeof source === "string" ? createReadStream(source, { highWaterMark: CHUNK_BYTES }) : source;
  let lineNo = 0;
  for await (const chunk of stream) {
    const buffer = asBuffer(chunk);
    let start = 0;
    let end = buffer.indexOf(LF, start);
    while (end !== -1) {
      pending.append(buffer.subarray(start, end));
      lineNo += 1;
      yield pending.finish(lineNo);
      start = end + 1;
      end = buffer.indexOf(LF, start);
    }
    pending.append(buffer.subarray(start), true);
  }
  if (pending.length > 0) {
    lineNo += 1;
    yield pending.finish(lineNo);
  }
}
