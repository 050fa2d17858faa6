import "server-only";
import { publicDisclosureOf } from "@/lib/domain/scoring/public-disclosure";
import { db } from "@/lib/platform/db";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { disclosureLevelFor, discloseStoredScore, readPair, verdictOf } from "@/lib/core/disclosure/disclose";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { isScoreStale, releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { missingFactSheetFields } from "@/lib/core/fact-sheet/completeness";
import { readStoredFactSheet } from "@/lib/core/fact-sheet/schema";
import { scoredEntryTier } from "@/lib/core/fact-sheet/tiers";
import type { EntryComparison, EntryDetail } from "@/lib/core/leaderboard/entry-types";
import { findRankingView } from "./find-ranking-view";
import { TRACK_LABELS } from "@/lib/core/leaderboard/views";
import { isPublicEntry } from "@/lib/domain/scoring/public-entry-rule";

/** What the entry page reads of a submission: its facts, its score and its stored comparisons with the baselines. */
const ENTRY_SELECT = {
  id: true,
  track: true,
  split: true,
  isBaseline: true,
  baselineLabel: true,
  publication: true,
  systemName: true,
  methodDescription: true,
  factSheet: true,
  reproducedAt: true,
  reproducedBy: { select: { displayName: true } },
  publishedAt: true,
  createdAt: true,
  user: { select: { displayName: true, affiliation: true } },
  release: { select: { id: true, name: true, version: true, goldSha256: true, minGroupN: true } },
  score: { select: { n: true, scorerVersion: true, goldSha256: true, computedAt: true, report: true, feedbackReport: true, rankingReport: true } },
  comparisonsAsEntry: {
    where: { baseline: { isBaseline: true } },
    orderBy: [{ family: "asc" }, { baselineId: "asc" }],
    select: {
      baselineId: true,
      family: true,
      identicalTo: true,
      metric: true,
      b: true,
      c: true,
      chi2: true,
      p: true,
      pExact: true,
      pHolm: true,
      baseline: { select: { baselineLabel: true, systemName: true, score: { select: { primary: true } } } },
    },
  },
} satisfies Prisma.SubmissionSelect;

type EntryRow = Prisma.SubmissionGetPayload<{ select: typeof ENTRY_SELECT }>;

/**
 * One public entry with its score summary and its comparisons with every
 * baseline: what the entry page and GET /api/entries/[id] show. Aggregates
 * only; the per-sample outcomes are not read here. A test entry's comparisons
 * are the section 13 readings of its track's leaderboard view of all types
 * (the default view, or every entry when it is not its owner's primary one),
 * so they say what the leaderboard says of each pair. Null when the id names
 * nothing public.
 */
export async function findPublicEntry(id: string): Promise<EntryDetail | null> {
  const submission = await db.submission.findUnique({ where: { id }, select: ENTRY_SELECT });
  if (submission === null || !isPublicEntry(submission) || submission.split === "train") {
    return null;
  }
  const gold = releaseGoldOf(submission.release.goldSha256, submission.split);
  const { score } = submission;
  const factSheet = readStoredFactSheet(submission.factSheet);
  // The entry page is public: everyone, maintainers included, sees what section 12 allows the public.
  const level = disclosureLevelFor({ split: submission.split, isPublic: true, isMaintainer: false });
  const options = level === "public" && score !== null ? publicDisclosureOf(submission.release, { id: submission.id, goldSha256: score.goldSha256 }) : { level, minGroupN: submission.release.minGroupN };
  const report = score === null ? null : (discloseStoredScore(score, options)?.report ?? null);
  const primaryKey = submission.track === "open" ? "alias" : "hit@1";
  const comparisons =
    submission.split === "test"
      ? await viewComparisons(submission.id, submission.track, submission.release.id)
      : devComparisons(submission, report?.metrics[primaryKey] ?? null);
  return {
    id: submission.id,
    track: submission.track,
    split: submission.split,
    isBaseline: submission.isBaseline,
    system: (submission.isBaseline ? submission.baselineLabel : null) ?? submission.systemName ?? submission.baselineLabel ?? "Unnamed system",
    team: submission.user.displayName,
    affiliation: submission.user.affiliation,
    description: submission.methodDescription,
    factSheet,
    factSheetMissing: factSheet === null ? [] : missingFactSheetFields(factSheet),
    paperUrl: factSheet?.paperUrl ?? null,
    codeUrl: factSheet?.codeUrl ?? null,
    parameterCount: factSheet?.parameters ?? null,
    isOpenWeights: factSheet?.openWeights ?? null,
    provenance: {
      tier: scoredEntryTier({ factSheet, isReproduced: submission.reproducedAt !== null }),
      reproducedAt: submission.reproducedAt?.toISOString() ?? null,
      reproducedBy: submission.reproducedBy?.displayName ?? null,
    },
    publishedAt: submission.publishedAt?.toISOString() ?? null,
    createdAt: submission.createdAt.toISOString(),
    release: { id: submission.release.id, name: submission.release.name, version: submission.release.version },
    score: score === null || report === null ? null : entryScoreOf(score, report, gold),
    comparisons: comparisons.sort((x, y) => x.baselineName.localeCompare(y.baselineName, "en")),
  };
}

/** A dev entry's comparisons: the dev split's gold is public, so its stored section 9 comparisons, read as every page reads a pair. */
function devComparisons(submission: EntryRow, primaryValue: number | null): EntryComparison[] {
  const labelOf = new Map(
    submission.comparisonsAsEntry.map((row) => [row.baselineId, row.baseline.baselineLabel ?? row.baseline.systemName ?? row.baselineId]),
  );
  return submission.comparisonsAsEntry
    .filter((comparison) => comparison.family === "track")
    .map((comparison) => ({
      baselineId: comparison.baselineId,
      baselineName: labelOf.get(comparison.baselineId) ?? comparison.baselineId,
      view: `${TRACK_LABELS[submission.track]}, dev split`,
      metric: comparison.metric,
      ...readPair({ verdict: verdictOf(comparison), pHolm: comparison.pHolm }, primaryValue, comparison.baseline.score?.primary ?? null),
    }));
}

/** The score summary the entry page shows, from the disclosed report. */
function entryScoreOf(
  score: NonNullable<EntryRow["score"]>,
  report: DisclosedEntryReport,
  gold: ReturnType<typeof releaseGoldOf>,
): NonNullable<EntryDetail["score"]> {
  return {
    n: report.n,
    scorerVersion: report.scorer_version,
    platformScoringVersion: score.scorerVersion,
    goldVersion: goldVersionId(score.goldSha256),
    computedAt: score.computedAt.toISOString(),
    isStale: isScoreStale(score, gold),
    minGroupN: report.disclosure.min_group_n,
    coarseBelowN: report.disclosure.coarse_below_n,
    metrics: report.metrics,
    ci95: report.ci95,
    byType: report.by_type ?? {},
    byCollection: report.by_collection ?? {},
  };
}

type DisclosedEntryReport = NonNullable<ReturnType<typeof discloseStoredScore>>["report"];

/** The entry's readings against each baseline in its track's view of all types: the default view, or every entry when it is not in it. */
async function viewComparisons(entryId: string, track: "open" | "closed", releaseId: string): Promise<EntryComparison[]> {
  const found = await findRankingView(track, releaseId, (view) => view.rows.some((row) => row.key === entryId && row.rank !== null));
  if (found === null) return [];
  const { view, name } = found;
  return view.rows.flatMap((row) => {
    const reading = row.kind === "baseline" ? view.readPair(entryId, row.key) : null;
    return reading === null ? [] : [{ ...reading, baselineId: row.key, baselineName: row.system, view: name, metric: view.rankMetric }];
  });
}
