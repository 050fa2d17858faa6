import "server-only";
import { buildFactSheet } from "@/lib/core/fact-sheet/build-fact-sheet";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { db } from "@/lib/platform/db";
import type { PublicationStatus, Split } from "@/lib/platform/generated/prisma";
import { synthesizeLeaderboardRelease, writeLeaderboardRelease, type SyntheticRelease } from "@/testing/leaderboard/synthetic-release";
import { importRelease } from "@/lib/domain/releases/import-release";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { replaceComparisons } from "@/lib/domain/scoring/store-comparisons";
import { storeScores } from "@/lib/domain/scoring/store-score";
import { planComparisonRows } from "@/lib/core/scoring/comparison-families";
import { buildGold, buildKbIndex, type GoldRecord, type KbIndex } from "@/lib/core/scoring/gold";
import { scorePredictions } from "@/lib/core/scoring/score-report";
import { sliceOutcomes, sliceReportsOf } from "@/lib/core/slices/slice-reports";
import { loadAnswerIndex, loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { ANSWER_KEY_VERSION, computeAnswerDigests } from "@/lib/core/integrity/answer-digests";

/**
 * Support for the leaderboard's integration tests (tests/integration/
 * leaderboard-*.int.test.ts), not used by the app: a tiny release and
 * hand-made prediction files, where which samples each system gets right is
 * decided index by index, so expected counts can be worked out by hand.
 * Scores and comparisons are made with lib/core/scoring and stored with
 * lib/domain/scoring/store-score.ts, exactly as the worker stores them.
 */

export type LeaderboardFixtureRelease = {
  releaseId: string;
  content: SyntheticRelease;
  kb: KbIndex;
  gold: Record<"dev" | "test", GoldRecord[]>;
};

/** `sliceFamily`: the earlier release name whose slices this one keeps (protocol §12: releases sharing test entities). */
export async function importLeaderboardRelease(name: string, testSamples: number, sliceFamily?: string): Promise<LeaderboardFixtureRelease> {
  const generated = synthesizeLeaderboardRelease({ name, version: "1.0", testSamples });
  const content = sliceFamily === undefined ? generated : { ...generated, meta: { ...generated.meta, slice_family: sliceFamily } };
  const dir = await mkdtemp(path.join(os.tmpdir(), "irc-leaderboard-int-"));
  try {
    await writeLeaderboardRelease(dir, content);
    const result = await importRelease({ dir, activate: true });
    const kb = buildKbIndex(content.entities);
    return {
      releaseId: result.releaseId,
      content,
      kb,
      gold: { dev: buildGold(content.samples.dev, kb), test: buildGold(content.samples.test, kb) },
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** Open-world: "exact" names the entity, "alias" gives its alias, "miss" a wrong name. */
export type OpenAnswer = "exact" | "alias" | "miss";

export function openPredictions(gold: readonly GoldRecord[], answer: (index: number) => OpenAnswer): Map<string, string> {
  return new Map(
    gold.map((record, index) => {
      const kind = answer(index);
      const text = kind === "exact" ? record.name : kind === "alias" ? (record.aliases[0] ?? record.name) : "Nobody in particular";
      return [record.id, text];
    }),
  );
}

/** Closed-world: the gold QID first when `isTop(index)`, otherwise second after another entity. */
export function closedPredictions(gold: readonly GoldRecord[], kb: KbIndex, isTop: (index: number) => boolean): Map<string, string[]> {
  const qids = [...kb.keys()];
  return new Map(
    gold.map((record, index) => {
      const other = qids.find((qid) => qid !== record.qid) ?? record.qid;
      return [record.id, isTop(index) ? [record.qid, other] : [other, record.qid]];
    }),
  );
}

export type FixtureEntry = {
  id: string;
  userId: string;
  split: Split;
  publication: PublicationStatus;
  isBaseline?: boolean;
  systemName: string;
  parameterCount?: bigint | null;
  isOpenWeights?: boolean | null;
  /** Fact-sheet answers beyond the parameters and weights (lib/core/fact-sheet/build-fact-sheet.ts). */
  factSheet?: Parameters<typeof buildFactSheet>[1];
} & ({ track: "open"; predictions: Map<string, string> } | { track: "closed"; predictions: Map<string, string[]> });

export type StoredFixture = { id: string; track: "open" | "closed"; split: Split; codes: Uint8Array; isBaseline: boolean };

async function fixtureAnswerDigests(releaseId: string, entry: FixtureEntry): Promise<Uint8Array<ArrayBuffer>> {
  const { sampleIds } = await loadSplitGold(releaseId, "test");
  const predictions = entry.track === "open" ? { track: "open" as const, predictions: entry.predictions } : { track: "closed" as const, predictions: entry.predictions };
  return computeAnswerDigests(sampleIds, predictions, await loadAnswerIndex(releaseId));
}

/** Stores submissions with their scores through the worker's writer (lib/domain/scoring/store-score.ts), then every comparison with the split's baselines. */
export async function storeScoredEntries(release: LeaderboardFixtureRelease, entries: readonly FixtureEntry[]): Promise<StoredFixture[]> {
  const releaseGold = (await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId }, select: { goldSha256: true } })).goldSha256;
  const stored: StoredFixture[] = [];
  for (const entry of entries) {
    const split = entry.split === "dev" ? "dev" : "test";
    const gold = release.gold[split];
    const { report, outcomes } =
      entry.track === "open"
        ? scorePredictions({ track: "open", predictions: entry.predictions, gold, kb: release.kb, split, seed: 42, resamples: 200 })
        : scorePredictions({ track: "closed", predictions: entry.predictions, gold, kb: release.kb, split, seed: 42, resamples: 200 });
    await db.submission.create({
      data: {
        id: entry.id,
        userId: entry.userId,
        releaseId: release.releaseId,
        split: entry.split,
        track: entry.track,
        status: "SCORED",
        fileSha256: entry.id.padEnd(64, "0").slice(0, 64),
        fileBytes: 1,
        originalName: `${entry.id}.jsonl`,
        sampleCount: gold.length,
        isBaseline: entry.isBaseline ?? false,
        baselineLabel: entry.isBaseline ? entry.systemName : null,
        // What pre-flight stores with a test upload: the publication guard compares these (no file is stored here).
        ...(split === "test" ? { answerDigests: await fixtureAnswerDigests(release.releaseId, entry), answerDigestsVersion: ANSWER_KEY_VERSION } : {}),
        publication: entry.publication,
        publishedAt: entry.publication === "PUBLISHED" ? new Date("2026-11-01T00:00:00Z") : null,
        systemName: entry.systemName,
        methodDescription: `${entry.systemName}, made by hand for a test`,
        factSheet: buildFactSheet(entry.systemName, {
          codeUrl: "https://example.org/code",
          parameters: entry.parameterCount === undefined || entry.parameterCount === null ? null : Number(entry.parameterCount),
          openWeights: entry.isOpenWeights ?? null,
          ...entry.factSheet,
        }),
      },
    });
    const slices = sliceReportsOf(await loadSplitGold(release.releaseId, split), outcomes, { split, seed: 42, resamples: 200 });
    await storeScores(db, [{ submissionId: entry.id, report, outcomes: outcomes.codes, goldSha256: releaseGoldOf(releaseGold, split) ?? "", slices }]);
    stored.push({ id: entry.id, track: entry.track, split: entry.split, codes: outcomes.codes, isBaseline: entry.isBaseline ?? false });
  }
  // Section 9 families compare the feedback slice on the test split, as lib/domain/scoring/refresh-comparisons.ts does.
  const testSlices = (await loadSplitGold(release.releaseId, "test")).slices;
  const compared = (entry: StoredFixture) => {
    const outcomes = { track: entry.track, codes: entry.codes };
    return entry.split === "test" && testSlices !== null ? sliceOutcomes(outcomes, testSlices.feedback) : outcomes;
  };
  const baselines = stored.filter((entry) => entry.isBaseline).map((entry) => ({ id: entry.id, split: entry.split, outcomes: compared(entry) }));
  await replaceComparisons(
    db,
    stored.map((entry) => ({
      entryId: entry.id,
      rows: planComparisonRows({ id: entry.id, outcomes: compared(entry) }, baselines.filter((baseline) => baseline.split === entry.split)),
    })),
  );
  return stored;
}

/** Calls a route handler the way Next.js does and returns status, headers and parsed JSON. */
export async function callJson(response: Response): Promise<{ status: number; headers: Headers; body: unknown; text: string }> {
  const text = await response.text();
  let body: unknown = null;
  try {
    body = text.length > 0 ? JSON.parse(text) : null;
  } catch {
    body = null;
  }
  return { status: response.status, headers: response.headers, body, text };
}
