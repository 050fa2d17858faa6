import "server-only";
import { db } from "@/lib/db";
import { Prisma, type Split as DbSplit, type Track as DbTrack } from "@/lib/generated/prisma";
import { planComparisonRows } from "@/lib/scoring/comparison-families";
import type { SampleOutcomes } from "@/lib/scoring/outcome-codes";

type ScoredRow = { id: string; outcomes: SampleOutcomes; goldSha256: string };

const REFRESH_TIMEOUT_MS = 120_000;

export function outcomesFromBytes(track: DbTrack, bytes: Uint8Array): SampleOutcomes {
  return { track, codes: new Uint8Array(bytes) };
}

async function loadScored(
  tx: Prisma.TransactionClient,
  releaseId: string,
  split: DbSplit,
  where: Prisma.SubmissionWhereInput,
  justScoredId: string | undefined,
): Promise<ScoredRow[]> {
  // A submission whose score was just stored counts as scored: it is marked SCORED in this same transaction.
  const isScored: Prisma.SubmissionWhereInput = justScoredId ? { OR: [{ status: "SCORED" }, { id: justScoredId }] } : { status: "SCORED" };
  const rows = await tx.submission.findMany({
    where: { releaseId, split, AND: [isScored, where] },
    select: { id: true, track: true, score: { select: { outcomes: true, goldSha256: true } } },
    orderBy: { createdAt: "asc" },
  });
  return rows.flatMap((row) => (row.score ? [{ id: row.id, goldSha256: row.score.goldSha256, outcomes: outcomesFromBytes(row.track, row.score.outcomes) }] : []));
}

/** Compares one entry with every baseline of its split in both Holm families (section 9) and stores the rows. */
async function compareEntry(tx: Prisma.TransactionClient, entry: ScoredRow, baselines: ScoredRow[]): Promise<void> {
  const family = baselines.filter((baseline) => baseline.goldSha256 === entry.goldSha256);
  const comparisons = planComparisonRows(entry, family);
  await tx.comparison.deleteMany({ where: { entryId: entry.id } });
  if (comparisons.length === 0) return;
  // Floats go in as text: Prisma's own number parameters can lose the last digit
  // (0.30000000000000004 is stored as 0.3), and these numbers must match the CLI's exactly.
  const rows = comparisons.map(
    (row) =>
      Prisma.sql`(${entry.id}, ${row.baseline}, ${row.family}, ${row.identical_to}, ${row.metric}, ${row.b}, ${row.c}, ${String(row.chi2)}::float8, ${String(row.p)}::float8, ${String(row.p_exact)}::float8, ${String(row.p_holm)}::float8)`,
  );
  await tx.$executeRaw`INSERT INTO "Comparison" ("entryId", "baselineId", "family", "identicalTo", "metric", "b", "c", "chi2", "p", "pExact", "pHolm") VALUES ${Prisma.join(rows)}`;
}

/**
 * Brings the comparisons of a split up to date. With `submissionId` of an
 * ordinary entry, that entry is compared with the baselines; when it is a
 * baseline (or none is given) every entry of the split is redone, because the
 * family of baselines, and so each Holm adjustment, changed. Runs under a
 * per-split advisory lock, so concurrent workers never interleave their writes.
 *
 * With `markScored`, the submission's score was just stored and it becomes
 * SCORED in the same transaction as its comparisons: its owner never sees a
 * scored submission without them, and a concurrent refresh either sees it
 * scored with its comparisons or not at all.
 */
export async function refreshComparisons(
  releaseId: string,
  split: DbSplit,
  submissionId?: string,
  options: { markScored?: boolean } = {},
): Promise<void> {
  const justScoredId = options.markScored ? submissionId : undefined;
  await db.$transaction(
    async (tx) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`comparisons:${releaseId}:${split}`}))`;
      const baselines = await loadScored(tx, releaseId, split, { isBaseline: true }, justScoredId);
      const isWholeSplit = submissionId === undefined || baselines.some((baseline) => baseline.id === submissionId);
      const entries = await loadScored(tx, releaseId, split, isWholeSplit ? {} : { id: submissionId }, justScoredId);
      for (const entry of entries) await compareEntry(tx, entry, baselines);
      if (justScoredId) {
        await tx.submission.update({
          where: { id: justScoredId },
          data: { status: "SCORED", finishedAt: new Date(), failureKind: null, failureReason: null },
        });
      }
    },
    { timeout: REFRESH_TIMEOUT_MS, maxWait: REFRESH_TIMEOUT_MS },
  );
}
