import "server-only";
import { db } from "@/lib/platform/db";
import type { Prisma, Split as DbSplit, Track as DbTrack } from "@/lib/platform/generated/prisma";
import { replaceComparisons } from "@/lib/domain/scoring/store-comparisons";
import { planComparisonRows } from "@/lib/core/scoring/comparison-families";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";
import { sliceOutcomes } from "@/lib/core/slices/slice-reports";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";

type ScoredRow = { id: string; outcomes: SampleOutcomes; goldSha256: string };

export const REFRESH_TIMEOUT_MS = 120_000;

export function outcomesFromBytes(track: DbTrack, bytes: Uint8Array): SampleOutcomes {
  return { track, codes: new Uint8Array(bytes) };
}

/**
 * The outcomes the section 9 families compare: on the test split those of the
 * feedback slice only, the one its unpublished owner is shown (protocol
 * section 12); public verdicts are the section 13 tests of the ranking slice.
 */
async function comparedOutcomes(releaseId: string, split: DbSplit): Promise<(outcomes: SampleOutcomes) => SampleOutcomes> {
  if (split !== "test") return (outcomes) => outcomes;
  const { slices } = await loadSplitGold(releaseId, split);
  if (slices === null) throw new Error("the test split has no slices");
  return (outcomes) => (outcomes.codes.length === slices.feedback.length + slices.ranking.length ? sliceOutcomes(outcomes, slices.feedback) : outcomes);
}

async function loadScored(tx: Prisma.TransactionClient, releaseId: string, split: DbSplit, where: Prisma.SubmissionWhereInput): Promise<ScoredRow[]> {
  const [rows, compared] = await Promise.all([
    tx.submission.findMany({
      where: { releaseId, split, status: "SCORED", ...where },
      select: { id: true, track: true, score: { select: { outcomes: true, goldSha256: true } } },
      orderBy: { createdAt: "asc" },
    }),
    comparedOutcomes(releaseId, split),
  ]);
  return rows.flatMap((row) => (row.score ? [{ id: row.id, goldSha256: row.score.goldSha256, outcomes: compared(outcomesFromBytes(row.track, row.score.outcomes)) }] : []));
}

/** Takes the split's comparison lock for the rest of the transaction: concurrent workers never interleave their writes. */
export async function lockSplitComparisons(tx: Prisma.TransactionClient, releaseId: string, split: DbSplit): Promise<void> {
  await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`comparisons:${releaseId}:${split}`}))`;
}

/**
 * Within a transaction that holds the split's lock: brings the comparisons of
 * a split up to date. With `submissionId` of an ordinary entry, that entry is
 * compared with the baselines in both Holm families (section 9); when it is a
 * baseline (or none is given) every entry of the split is redone, because the
 * family of baselines, and so each Holm adjustment, changed; for a baseline
 * while another baseline of the split still waits, only it is, and the last
 * one redoes the split (hasWaitingBaseline). Only SCORED submissions take part.
 */
export async function compareWithBaselines(tx: Prisma.TransactionClient, releaseId: string, split: DbSplit, submissionId?: string): Promise<void> {
  const baselines = await loadScored(tx, releaseId, split, { isBaseline: true });
  const isBaseline = submissionId !== undefined && baselines.some((baseline) => baseline.id === submissionId);
  const isWholeSplit = submissionId === undefined || (isBaseline && !(await hasWaitingBaseline(tx, releaseId, split, submissionId)));
  const entries = await loadScored(tx, releaseId, split, isWholeSplit ? {} : { id: submissionId });
  await replaceComparisons(
    tx,
    entries.map((entry) => ({
      entryId: entry.id,
      // A baseline of other gold (a score not yet re-scored) is no member of the family.
      rows: planComparisonRows(entry, baselines.filter((baseline) => baseline.goldSha256 === entry.goldSha256)),
    })),
  );
}

/**
 * Whether another baseline of the split waits for the worker (a re-score of
 * the release queues them all). The whole split is redone when the last of
 * them is scored, or fails (markSubmissionFailed), so a re-score of the
 * release redoes it once rather than once per baseline: until then, entries
 * scored meanwhile lack only the baselines still waiting, as they do whenever
 * a baseline is not yet scored.
 */
async function hasWaitingBaseline(tx: Prisma.TransactionClient, releaseId: string, split: DbSplit, submissionId: string): Promise<boolean> {
  const waiting = await tx.submission.count({ where: { releaseId, split, isBaseline: true, status: { in: ["QUEUED", "SCORING"] }, id: { not: submissionId } } });
  return waiting > 0;
}

/** `compareWithBaselines` in a transaction of its own, under the split's lock (review actions, a repeated job). */
export async function refreshComparisons(releaseId: string, split: DbSplit, submissionId?: string): Promise<void> {
  await db.$transaction(
    async (tx) => {
      await lockSplitComparisons(tx, releaseId, split);
      await compareWithBaselines(tx, releaseId, split, submissionId);
    },
    { timeout: REFRESH_TIMEOUT_MS, maxWait: REFRESH_TIMEOUT_MS },
  );
}
