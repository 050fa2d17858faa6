import type { PairReading } from "@/lib/core/disclosure/disclose";
import { RANK_SIGNIFICANCE_LEVEL } from "@/lib/core/ranking/paired-ranks";

/**
 * The state-of-the-art rule of the progress timeline (docs/leaderboard.md,
 * "Progress over time"). Pure: the loader hands in the public entries of one
 * view (track x entity type) with their disclosed values (section 12) and
 * the view's reading of any pair (section 13), so a step says what the
 * leaderboard says of that pair.
 *
 * Entries are taken in date order; entries of the same day best first (so a
 * day gives at most one new state of the art), then by name and id. The first
 * tested entry opens the timeline. A later entry whose value is above the
 * current state of the art's is compared with it by the view's section 13
 * test of the pair (McNemar's exact test, Holm-adjusted among the view's
 * entries). It becomes the new state of the art only when that verdict is
 * "significantly better"; otherwise it is "not significantly better" and the
 * state of the art stays. So an entry below a
 * higher but non-significant one can still be the next state of the art. The
 * best-score line follows the highest value.
 *
 * Reported results (papers) have no per-sample outcomes: they are drawn at
 * their paper's date, labelled, and never a state of the art nor part of the
 * line. An entry scored against other gold (stale: no comparable outcomes) is
 * drawn as untested. Entries the public cannot see (hidden, withdrawn,
 * unpublished) are left out entirely; baselines are included and marked.
 */

export const SOTA_SIGNIFICANCE_LEVEL = RANK_SIGNIFICANCE_LEVEL;

type ProgressKind = "submission" | "baseline" | "reported";

export type ProgressCandidate = {
  id: string;
  system: string;
  kind: ProgressKind;
  /** UTC day, YYYY-MM-DD: publication (baselines: upload); a reported row's paper date. Null: not drawn. */
  date: string | null;
  /** The disclosed value on the view's metric (section 12 rounding); null when the view shows none. */
  value: number | null;
  /**
   * What every comparison of the timeline reads (section 12: "best so far" from the perturbed count before rounding):
   * an entry's perturbed count over n; a reported row's value. Null when the view shows none.
   */
  order: number | null;
  /** Whether the view ranks it (it has comparable outcomes); false for reported rows and stale scores. */
  isTested: boolean;
  /** A baseline or a published entry; hidden, withdrawn and unpublished entries are false. */
  isPublic: boolean;
};

export type ProgressStatus =
  /** The first tested entry: it opens the timeline as the state of the art. */
  | "first"
  /** Significantly better than the previous state of the art. */
  | "sota"
  /** Above the state of the art's value, but not significantly better than it. */
  | "not-significant"
  /** Not above the state of the art's value (ties included). */
  | "not-higher"
  /** A paper's number: no outcomes, no test. */
  | "reported"
  /** Scored against other gold: no comparable outcomes, no test. */
  | "untested";

/** The step's test: the view's reading of this entry against the state of the art it was tested against. */
type SotaTest = PairReading & { againstId: string; againstSystem: string };

export type ProgressPoint = {
  id: string;
  system: string;
  kind: ProgressKind;
  date: string;
  value: number;
  status: ProgressStatus;
  /** The best tested value on or before this point (the line); null before the first tested entry. */
  best: number | null;
  /** The state of the art after this point. */
  sotaId: string | null;
  test: SotaTest | null;
};

export type ProgressTimeline = {
  points: ProgressPoint[];
  /** Public reported rows with a value but no paper date: listed, not drawn. */
  undatedReported: { id: string; system: string; value: number }[];
};

function compareCandidates(x: DatedCandidate, y: DatedCandidate): number {
  if (x.date !== y.date) return x.date < y.date ? -1 : 1;
  if (x.order !== y.order) return y.order - x.order;
  return x.system.localeCompare(y.system, "en") || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0);
}

type DatedCandidate = ProgressCandidate & { date: string; value: number; order: number };

function isDrawable(candidate: ProgressCandidate): candidate is DatedCandidate {
  return candidate.isPublic && candidate.date !== null && candidate.value !== null && Number.isFinite(candidate.value) && candidate.order !== null && Number.isFinite(candidate.order);
}

type Sota = { id: string; system: string; order: number };

/** The view's section 13 reading of an entry against another, from the first's side (LeaderboardView.readPair). */
export type PairReader = (entryId: string, otherId: string) => PairReading | null;

export function buildProgressTimeline(candidates: readonly ProgressCandidate[], readPair: PairReader): ProgressTimeline {
  const undatedReported = candidates
    .filter((candidate) => candidate.isPublic && candidate.kind === "reported" && candidate.date === null && candidate.value !== null)
    .map((candidate) => ({ id: candidate.id, system: candidate.system, value: candidate.value ?? 0 }));
  const ordered = candidates.filter(isDrawable).sort(compareCandidates);

  const points: ProgressPoint[] = [];
  let sota: Sota | null = null;
  let best: number | null = null;
  for (const candidate of ordered) {
    const base = { id: candidate.id, system: candidate.system, kind: candidate.kind, date: candidate.date, value: candidate.value };
    if (candidate.kind === "reported" || !candidate.isTested) {
      const status: ProgressStatus = candidate.kind === "reported" ? "reported" : "untested";
      points.push({ ...base, status, best, sotaId: sota?.id ?? null, test: null });
      continue;
    }
    if (sota === null || best === null) {
      sota = { id: candidate.id, system: candidate.system, order: candidate.order };
      best = candidate.value;
      points.push({ ...base, status: "first", best, sotaId: sota.id, test: null });
      continue;
    }
    if (candidate.order <= sota.order) {
      points.push({ ...base, status: "not-higher", best, sotaId: sota.id, test: null });
      continue;
    }
    best = Math.max(best, candidate.value);
    const reading = readPair(candidate.id, sota.id);
    const test: SotaTest | null = reading === null ? null : { ...reading, againstId: sota.id, againstSystem: sota.system };
    const isSignificant = test?.verdict === "better";
    if (isSignificant) {
      sota = { id: candidate.id, system: candidate.system, order: candidate.order };
    }
    points.push({ ...base, status: isSignificant ? "sota" : "not-significant", best, sotaId: sota.id, test });
  }
  return { points, undatedReported };
}

/** One line for a point's status, for the table and the chart's tooltip. */
export function describeProgressStatus(point: Pick<ProgressPoint, "status" | "test">): string {
  switch (point.status) {
    case "first":
      return "first tested entry: state of the art";
    case "sota":
      return `new state of the art: significantly better than ${point.test?.againstSystem ?? "the previous one"}`;
    case "not-significant":
      return `higher, not significantly better than ${point.test?.againstSystem ?? "the state of the art"}`;
    case "not-higher":
      return "not above the state of the art";
    case "reported":
      return "reported in a paper: no per-sample outcomes, never a state of the art";
    case "untested":
      return "scored against other gold: not tested";
  }
}

/** The rule in one paragraph, as the page, the API (`sota_rule`) and the docs state it. */
export function describeSotaRule(): string {
  return (
    "Entries are taken by date (same day: best first). The first tested entry opens the timeline; a later entry above the state " +
    "of the art's value is a new state of the art only when the view's paired test of the two (protocol section 13: McNemar's exact " +
    `test, Holm-adjusted among the view's entries, p < ${SOTA_SIGNIFICANCE_LEVEL}) says it is significantly better, the verdict the ` +
    "leaderboard prints for that pair; otherwise it is shown as not significantly better. Reported results (papers) have no per-sample outcomes: they are drawn " +
    "at their paper's date and are never a state of the art. Hidden and withdrawn entries are left out; baselines are included."
  );
}
