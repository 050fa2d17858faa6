import "server-only";
import { db } from "@/lib/platform/db";
import { getLogSigningKey } from "@/lib/platform/public-log-key";
import { GENESIS_HASH, isPublicLogKind, type PublicLogData, type PublicLogRecord } from "@/lib/core/public-log/public-log-record";
import { signHead, type SignedHead } from "@/lib/core/public-log/signed-head";

/** Reads of the public log: its records from a seq on, filtered by release or entry, and its signed head. */

type RecordRow = { seq: number; at: string; kind: string; release: string; entry: string | null; summary: string; data: unknown; prev: string; hash: string };

function toRecord(row: RecordRow): PublicLogRecord {
  // A kind unknown to this version is shown as stored: the hash covers it either way (verification then fails on it, as it should).
  return { ...row, kind: isPublicLogKind(row.kind) ? row.kind : (row.kind as PublicLogRecord["kind"]), data: row.data as PublicLogData };
}

const COLUMNS = { seq: true, at: true, kind: true, release: true, entry: true, summary: true, data: true, prev: true, hash: true } as const;

type ListOptions = { after?: number; upTo?: number; release?: string; entry?: string; newestFirst?: boolean; limit?: number };

export async function listPublicLog(options: ListOptions = {}): Promise<PublicLogRecord[]> {
  const rows = await db.publicLogRecord.findMany({
    where: {
      seq: { gt: options.after ?? 0, ...(options.upTo === undefined ? {} : { lte: options.upTo }) },
      ...(options.release === undefined ? {} : { release: options.release }),
      ...(options.entry === undefined ? {} : { entry: options.entry }),
    },
    orderBy: { seq: options.newestFirst ? "desc" : "asc" },
    ...(options.limit === undefined ? {} : { take: options.limit }),
    select: COLUMNS,
  });
  return rows.map(toRecord);
}

/** The last record's seq and hash, signed with the operator's key (seq 0 and the genesis hash while the log is empty). */
export async function getSignedHead(): Promise<SignedHead> {
  const last = await db.publicLogRecord.findFirst({ orderBy: { seq: "desc" }, select: { seq: true, hash: true, at: true } });
  return signHead(getLogSigningKey().key, last ?? { seq: 0, hash: GENESIS_HASH, at: null });
}

/** The releases the log names, for the page's filter. */
export async function listLoggedReleases(): Promise<string[]> {
  const rows = await db.publicLogRecord.findMany({ distinct: ["release"], select: { release: true }, orderBy: { release: "asc" } });
  return rows.map((row) => row.release);
}
