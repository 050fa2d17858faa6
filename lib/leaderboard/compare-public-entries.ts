import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { compareOutcomes, type ComparisonMetric } from "@/lib/scoring/compare";
import type { McNemarResult } from "@/lib/scoring/mcnemar";
import type { Track } from "@/lib/scoring/tracks";
import type { Estimate, ReleaseRef } from "./leaderboard-types";
import { isPublicEntry } from "@/lib/scores/public-entry-rule";
import { discloseStoredReport, disclosureLevelFor } from "@/lib/disclosure/disclose";
import { typeDifferences, type TypeDifference } from "./type-differences";
import { reportMetricFor } from "./views";

/**
 * McNemar's test between any two public entries of the same release and
 * split (protocol section 9), on the primary metric when they share a track
 * and on the unified alias-aware top-1 metric across tracks. The stored
 * per-sample outcomes are read here, on the server, and reduced to the counts
 * b and c before anything leaves this function.
 */

export type ComparedEntry = {
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
  /** b = A right and B wrong, c = A wrong and B right; chi2, p, p_exact (section 9). */
  test: McNemarResult;
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
      score: { select: { goldSha256: true, outcomes: true, report: true } },
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
  const report = discloseStoredReport(submission.score.report, { level, minGroupN: submission.release.minGroupN });
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
  const test = compareOutcomes(
    { track: a.track, codes: new Uint8Array(a.score.outcomes) },
    { track: b.track, codes: new Uint8Array(b.score.outcomes) },
  );
  const { metric, ...counts } = test;
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
    n: a.score.outcomes.length,
    metric,
    a: side(a),
    b: side(b),
    test: counts,
    byType: typeDifferences(byTypeOf(a), byTypeOf(b), metric),
  };
}
