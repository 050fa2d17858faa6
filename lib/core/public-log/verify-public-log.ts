import { z } from "zod";
import { GENESIS_HASH, hashRecord, isPublicLogKind, type PublicLogRecord } from "./public-log-record";

/**
 * Checks a public log as /api/public-log serves it (JSON Lines, one record
 * per line, from seq 1): every line parses, seqs run 1, 2, 3 ..., each
 * record's hash is the SHA-256 of its canonical JSON without the hash, and
 * each `prev` is the record before's hash. Then, when the reader verified this
 * log before, that it extends what they saw: the same hash at every seq they
 * remember. The first problem found is named by its seq.
 */

const dataValue: z.ZodType<unknown> = z.lazy(() => z.union([z.string(), z.number().int().refine(Number.isSafeInteger), z.array(dataValue), z.record(z.string(), dataValue)]));

const recordSchema = z.strictObject({
  seq: z.number().int().positive(),
  at: z.string(),
  kind: z.string().refine(isPublicLogKind, "is not a kind of the public log"),
  release: z.string(),
  entry: z.string().nullable(),
  summary: z.string(),
  data: z.record(z.string(), dataValue),
  prev: z.string().regex(/^[0-9a-f]{64}$/),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
});

export type LogProblem = { seq: number | null; message: string };


export function parsePublicLog(text: string): { ok: true; records: PublicLogRecord[] } | { ok: false; problem: LogProblem } {
  const lines = text.split("\n");
  if (lines.at(-1) === "") lines.pop();
  const records: PublicLogRecord[] = [];
  for (const [index, line] of lines.entries()) {
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { ok: false, problem: { seq: null, message: `line ${index + 1} is not JSON` } };
    }
    const parsed = recordSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return { ok: false, problem: { seq: null, message: `line ${index + 1}: ${issue?.path.join(".") || "record"} ${issue?.message ?? "is invalid"}` } };
    }
    records.push(parsed.data as PublicLogRecord);
  }
  return { ok: true, records };
}

/** The chain's own consistency, from `start` (a record before the first given, or genesis). */
export function verifyChain(records: readonly PublicLogRecord[], start: { seq: number; hash: string } = { seq: 0, hash: GENESIS_HASH }): { ok: true; head: { seq: number; hash: string } } | { ok: false; problem: LogProblem } {
  let head = start;
  for (const record of records) {
    if (record.seq !== head.seq + 1) return { ok: false, problem: { seq: record.seq, message: `record ${record.seq} follows record ${head.seq}: a record is missing or repeated` } };
    const { hash, ...unhashed } = record;
    if (hashRecord(unhashed) !== hash) return { ok: false, problem: { seq: record.seq, message: `record ${record.seq}'s hash is not the SHA-256 of its content: the record was changed` } };
    if (record.prev !== head.hash) return { ok: false, problem: { seq: record.seq, message: `record ${record.seq}'s prev is not record ${head.seq}'s hash: the chain is broken there` } };
    head = { seq: record.seq, hash };
  }
  return { ok: true, head };
}

/**
 * Whether a verified log extends what was seen before (`seen[i]` the hash of
 * record i + 1): the first seq whose hash differs, or null when every
 * remembered record is there unchanged.
 */
export function findRewrittenRecord(records: readonly PublicLogRecord[], seen: readonly string[]): LogProblem | null {
  for (const [index, hash] of seen.entries()) {
    const record = records[index];
    if (record === undefined) return { seq: index + 1, message: `record ${index + 1} was verified before but is gone: the log was cut back to ${records.length} record(s)` };
    if (record.hash !== hash) return { seq: record.seq, message: `record ${record.seq} differs from the one verified before (hash ${hash.slice(0, 16)}... then, ${record.hash.slice(0, 16)}... now): the log's past was rewritten` };
  }
  return null;
}
