import { syntheticFactSheet } from "./synthetic-fact-sheets";
import "server-only";
import { createHash, randomUUID } from "node:crypto";
import { createSeededRandom } from "@/testing/synthetic/seeded-random";
import { db } from "@/lib/platform/db";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { replaceComparisons, type EntryComparisons } from "@/lib/domain/scoring/store-comparisons";
import { storeScores, type ScoreToStore } from "@/lib/domain/scoring/store-score";
import { planComparisonRows, type FamilyMember } from "@/lib/core/scoring/comparison-families";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";
import { buildScoreReport } from "@/lib/core/scoring/score-report";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { sliceOutcomes, sliceReportsOf } from "@/lib/core/slices/slice-reports";
import { syntheticProbeFlags } from "./synthetic-probe-flags";
import { planSyntheticEntries, SYNTHETIC_BASELINES, SYNTHETIC_TEAMS, synthesizeOutcomeCodes, type SyntheticEntry } from "./synthetic-entries";

/**
 * Seeds published synthetic entries and baselines into a release's test split,
 * the way the scoring worker stores real ones (the storage contract): a Score
 * with the section 11 report (comparisons: []), the outcome bytes, primary and
 * unified values, and a Comparison row per entry and baseline. Every seeded
 * row belongs to users with an @leaderboard-seed.invalid address, so
 * removeSeededEntries takes them all away again.
 */

export const SEED_EMAIL_DOMAIN = "leaderboard-seed.invalid";
const BASELINE_EMAIL = `baselines@${SEED_EMAIL_DOMAIN}`;
const CHUNK = 200;

export type SeedOptions = {
  releaseId: string;
  entries: number;
  /** Seed the four synthetic baselines too. */
  withBaselines: boolean;
  seed: number;
  resamples: number;
  /** Store clean probe flags of the current version with each score (synthetic-probe-flags.ts), as the worker stores a test file's. */
  withProbeFlags?: boolean;
  onProgress?: (done: number, total: number) => void;
};

export type SeedResult = { entries: number; baselines: number; comparisons: number; samples: number };

/** Removes every seeded user with their submissions, scores and comparisons (cascades). */
export async function removeSeededEntries(): Promise<number> {
  const removed = await db.user.deleteMany({ where: { email: { endsWith: `@${SEED_EMAIL_DOMAIN}` } } });
  return removed.count;
}

async function ensureUsers(): Promise<{ baselineOwner: string; teams: string[] }> {
  const teamEmails = SYNTHETIC_TEAMS.map((_, index) => `team-${index + 1}@${SEED_EMAIL_DOMAIN}`);
  await db.user.createMany({
    data: [
      { email: BASELINE_EMAIL, displayName: "IRC-Bench maintainers", isSystem: true },
      ...SYNTHETIC_TEAMS.map((name, index) => ({ email: teamEmails[index] ?? "", displayName: name, affiliation: "Synthetic University" })),
    ],
    skipDuplicates: true,
  });
  const users = await db.user.findMany({ where: { email: { endsWith: `@${SEED_EMAIL_DOMAIN}` } }, select: { id: true, email: true } });
  const idOf = new Map(users.map((user) => [user.email, user.id]));
  return { baselineOwner: idOf.get(BASELINE_EMAIL) ?? "", teams: teamEmails.map((email) => idOf.get(email) ?? "") };
}

type Planned = SyntheticEntry & { id: string; outcomes: SampleOutcomes };

async function insertInChunks<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>): Promise<void> {
  for (let start = 0; start < rows.length; start += CHUNK) {
    await insert(rows.slice(start, start + CHUNK));
  }
}

export async function seedLeaderboardEntries(options: SeedOptions): Promise<SeedResult> {
  const release = await db.datasetRelease.findUniqueOrThrow({ where: { id: options.releaseId }, select: { goldSha256: true } });
  const goldSha256 = releaseGoldOf(release.goldSha256, "test") ?? "";
  const testGold = await loadSplitGold(options.releaseId, "test");
  const { gold, slices } = testGold;
  if (slices === null) throw new Error("the test split has no slices");
  const goldTypes = gold.map((record) => record.type);
  const random = createSeededRandom(options.seed);
  const users = await ensureUsers();

  const plans: SyntheticEntry[] = [...(options.withBaselines ? SYNTHETIC_BASELINES : []), ...planSyntheticEntries(options.entries, random)];
  const planned: Planned[] = plans.map((plan) => ({
    ...plan,
    id: `lbseed${randomUUID().replaceAll("-", "")}`,
    outcomes: { track: plan.track, codes: synthesizeOutcomeCodes(plan, goldTypes, random) },
  }));

  // Baselines of the split: the ones seeded now and any already there (real or seeded earlier).
  const existingBaselines = await db.submission.findMany({
    where: { releaseId: options.releaseId, split: "test", isBaseline: true, score: { goldSha256 } },
    select: { id: true, track: true, score: { select: { outcomes: true } } },
    orderBy: { createdAt: "asc" },
  });
  const baselines: FamilyMember[] = [
    ...existingBaselines.flatMap((row) => (row.score ? [{ id: row.id, outcomes: { track: row.track, codes: new Uint8Array(row.score.outcomes) } }] : [])),
    ...planned.filter((entry) => entry.isBaseline).map((entry) => ({ id: entry.id, outcomes: entry.outcomes })),
  ];

  const feedbackBaselines = baselines.map((baseline) => ({ ...baseline, outcomes: sliceOutcomes(baseline.outcomes, slices.feedback) }));
  const now = Date.now();
  const submissions: Prisma.SubmissionCreateManyInput[] = planned.map((entry, index) => {
    const publishedAt = new Date(now - ((index * 7919) % 90) * 86_400_000);
    return {
      id: entry.id,
      userId: entry.isBaseline ? users.baselineOwner : (users.teams[entry.team] ?? users.baselineOwner),
      releaseId: options.releaseId,
      split: "test",
      track: entry.track,
      status: "SCORED",
      fileSha256: createHash("sha256").update(entry.id).digest("hex"),
      fileBytes: 0,
      originalName: "synthetic.jsonl",
      sampleCount: gold.length,
      isBaseline: entry.isBaseline,
      baselineLabel: entry.isBaseline ? entry.system : null,
      finishedAt: publishedAt,
      publication: "PUBLISHED",
      systemName: entry.system,
      methodDescription: entry.description,
      factSheet: syntheticFactSheet(entry, index) as unknown as Prisma.InputJsonValue,
      requestedAt: publishedAt,
      publishedAt,
    };
  });
  await insertInChunks(submissions, (chunk) => db.submission.createMany({ data: chunk }));

  // Stored through lib/domain/scoring/store-score.ts, the worker's own writer: floats exact, the same columns.
  const scores: ScoreToStore[] = [];
  const comparisons: EntryComparisons[] = [];
  planned.forEach((entry, index) => {
    const reportOptions = { split: "test" as const, seed: 42, resamples: options.resamples };
    const report = buildScoreReport({ ...reportOptions, gold, outcomes: entry.outcomes });
    scores.push({
      submissionId: entry.id,
      report,
      outcomes: entry.outcomes.codes,
      goldSha256,
      slices: sliceReportsOf(testGold, entry.outcomes, reportOptions),
      probeFlags: options.withProbeFlags ? syntheticProbeFlags(entry.track, gold.length) : null,
    });
    // Section 9 families on the feedback slice, as the worker compares them (lib/domain/scoring/refresh-comparisons.ts).
    comparisons.push({ entryId: entry.id, rows: planComparisonRows({ id: entry.id, outcomes: sliceOutcomes(entry.outcomes, slices.feedback) }, feedbackBaselines) });
    options.onProgress?.(index + 1, planned.length);
  });
  await insertInChunks(scores, (chunk) => storeScores(db, chunk));
  await insertInChunks(comparisons, (chunk) => replaceComparisons(db, chunk));
  return {
    entries: planned.filter((entry) => !entry.isBaseline).length,
    baselines: planned.filter((entry) => entry.isBaseline).length,
    comparisons: comparisons.reduce((sum, entry) => sum + entry.rows.length, 0),
    samples: gold.length,
  };
}
