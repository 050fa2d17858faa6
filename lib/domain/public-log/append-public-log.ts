import "server-only";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { GENESIS_HASH, hashRecord, releaseLabel, type PublicLogData, type PublicLogKind, type PublicLogRecord, type UnhashedRecord } from "@/lib/core/public-log/public-log-record";

/**
 * The public log's one writer (docs/public-log.md). Call it in the
 * transaction of the change it records: the record is committed with the
 * change or not at all. An advisory lock held to the end of the transaction
 * serialises appends, so two changes never take the same seq or the same
 * prev (the primary key on seq would refuse a fork anyway).
 */

/** pg_advisory_xact_lock's key for the public log: any fixed 64-bit number no other lock uses (hashtext keys are 32-bit). */
const PUBLIC_LOG_LOCK = 7_306_582_019_114_041n;

export type PublicLogChange = {
  kind: PublicLogKind;
  release: { id: string; name: string; version: string };
  entry?: string | null;
  summary: string;
  data: PublicLogData;
};

type LogClient = Pick<Prisma.TransactionClient, "$executeRaw" | "publicLogRecord">;

/** Holds the log's lock to the end of the transaction (taking it again in the same transaction is free). */
export async function lockPublicLog(tx: Pick<Prisma.TransactionClient, "$executeRaw">): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(${PUBLIC_LOG_LOCK})`;
}

export async function appendPublicLog(tx: LogClient, change: PublicLogChange): Promise<PublicLogRecord> {
  await lockPublicLog(tx);
  const last = await tx.publicLogRecord.findFirst({ orderBy: { seq: "desc" }, select: { seq: true, hash: true } });
  const unhashed: UnhashedRecord = {
    seq: (last?.seq ?? 0) + 1,
    at: new Date().toISOString(),
    kind: change.kind,
    release: releaseLabel(change.release),
    entry: change.entry ?? null,
    // One line: the page shows it as one.
    summary: change.summary.replace(/\s+/g, " ").trim(),
    data: change.data,
    prev: last?.hash ?? GENESIS_HASH,
  };
  const record: PublicLogRecord = { ...unhashed, hash: hashRecord(unhashed) };
  await tx.publicLogRecord.create({ data: { ...record, releaseId: change.release.id, data: record.data as Prisma.InputJsonObject } });
  return record;
}
