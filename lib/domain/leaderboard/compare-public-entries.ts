import "server-only";
import { publicDisclosureOf } from "@/lib/domain/scoring/public-disclosure";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { compareOutcomes, type ComparisonMetric } from "@/lib/core/scoring/compare";
import type { McNemarResult } from "@/lib/core/scoring/mcnemar";
import type { Track } from "@/lib/core/scoring/tracks";
import type { Estimate, ReleaseRef } from "@/lib/core/leaderboard/leaderboard-types";
import { isPublicEntry } from "@/lib/domain/scoring/public-entry-rule";
import { discloseStoredScore, disclosureLevelFor, type PairReading } from "@/lib/core/disclosure/disclose";
import { findRankingView } from "./find-ranking-view";
import { typeDifferences, type TypeDifference } from "@/lib/core/leaderboard/type-differences";
import { reportMetricFor, type LeaderboardTrack } from "@/lib/core/leaderboard/views";

/**
 * Any two public entries of the same release and split, side by side, on the
 * primary metric when they share a track and on the unified alias-aware top-1
 * metric across tracks. On the test split the verdict is the section 13
 * reading of the pair in the leaderboard view it names (their track, or the
 * unified view; all types), exactly as the leaderboard prints it, and nothing
 * finer (section 12: no b, c or exact p). On the dev split, whose gold is
 * public, it is McNemar's test of the pair with its counts.
 */

type ComparedEntry = {
  id: string;
  system: string;
  team: string;
  track: Track;
  isBaseline: boolean;
  /** The entry's overall value on the comparison metric. */
  overall: Estimate | null;
};

export type EntryPairComparison = {
  release: ReleaseRef;
  split: "dev" | "test";
  n: number;
  metric: ComparisonMetric;
  a: ComparedEntry;
  b: ComparedEntry;
  /** The test split's verdict, from A's side, and the view it is read in; null when the pair is not ranked in any view (a stale score). */
  reading: (PairReading & { view: string }) | null;
  /** The dev split only: b = A right and B wrong, c = A wrong and B right; chi2, p, p_exact (section 9). */
  devTest: McNemarResult | null;
  byType: TypeDifference[];
};

async function loadSide(id: string) {
  const submission = await db.submission.findUnique({
    where: { id },
    select: {
      id: true,
      releaseId: true,
      split: true,
      track: true,
      isBaseline: true,
      publication: true,
      baselineLabel: true,
      systemName: true,
      user: { select: { displayName: true } },
      release: { select: { id: true, name: true, version: true, minGroupN: true } },
      score: { select: { goldSha256: true, outcomes: true, report: true, feedbackReport: true, rankingReport: true } },
    },
  });
  if (submission === null || !isPublicEntry(submission)) {
    throw new AppError("not_found", `No public entry has the id "${id}".`);
  }
  if (submission.score === null) {
    throw new AppError("not_found", `Entry "${id}" has no score yet.`);
  }
  // Public entries only, so the public's view of their reports (section 12).
  const level = disclosureLevelFor({ split: submission.split, isPublic: true, isMaintainer: false });
  const options = level === "public" ? publicDisclosureOf(submission.release, { id: submission.id, goldSha256: submission.score.goldSha256 }) : { level, minGroupN: submission.release.minGroupN };
  const report = discloseStoredScore(submission.score, options)?.report ?? null;
  if (report === null) throw new AppError("not_found", `Entry "${id}" has no readable score.`);
  return { ...submission, score: submission.score, report };
}

export async function comparePublicEntries(aId: string, bId: string): Promise<EntryPairComparison> {
  if (aId === bId) {
    throw new AppError("validation", "Choose two different entries to compare.");
  }
  const [a, b] = await Promise.all([loadSide(aId), loadSide(bId)]);
  if (a.releaseId !== b.releaseId || a.split !== b.split) {
    throw new AppError(
      "validation",
      `These entries were scored on different data (${a.release.name} ${a.release.version} ${a.split} vs ${b.release.name} ${b.release.version} ${b.split}); a paired test needs the same release and split.`,
    );
  }
  if (a.score.goldSha256 !== b.score.goldSha256 || a.score.outcomes.length !== b.score.outcomes.length) {
    throw new AppError(
      "validation",
      "These entries were scored against different versions of the gold; compare them once both are re-scored.",
    );
  }
  const { metric, ...counts } = compareOutcomes(
    { track: a.track, codes: new Uint8Array(a.score.outcomes) },
    { track: b.track, codes: new Uint8Array(b.score.outcomes) },
  );
  const isTest = a.split === "test";
  const side = (entry: typeof a): ComparedEntry => {
    const key = reportMetricFor(metric, entry.track);
    const value = key === null ? undefined : entry.report.metrics[key];
    return {
      id: entry.id,
      system: (entry.isBaseline ? entry.baselineLabel : null) ?? entry.systemName ?? entry.baselineLabel ?? "Unnamed system",
      team: entry.user.displayName,
      track: entry.track,
      isBaseline: entry.isBaseline,
      overall: key === null || value === undefined ? null : { value, ci95: entry.report.ci95[key] ?? null },
    };
  };
  const byTypeOf = (entry: typeof a) => ({
    track: entry.track,
    byType: entry.report.by_type ?? {},
  });
  return {
    release: a.release,
    split: a.split === "dev" ? "dev" : "test",
    n: isTest ? (a.report.n) : a.score.outcomes.length,
    metric,
    a: side(a),
    b: side(b),
    reading: isTest ? await viewReading(a.id, b.id, a.track === b.track ? a.track : "unified", a.releaseId) : null,
    devTest: isTest ? null : counts,
    byType: typeDifferences(byTypeOf(a), byTypeOf(b), metric),
  };
}

/** The pair's reading in the view of `track`, all types: the default view when both are in it, else the view of every entry. */
async function viewReading(aId: string, bId: string, track: LeaderboardTrack, releaseId: string): Promise<(PairReading & { view: string }) | null> {
  const found = await findRankingView(track, releaseId, (view) => view.readPair(aId, bId) !== null);
  const reading = found?.view.readPair(aId, bId) ?? null;
  return found === null || reading === null ? null : { ...reading, view: found.name };
}
