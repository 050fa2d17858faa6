import { ENTITY_TYPES, type EntityType } from "@/lib/dataset/release-schema";
import { ownerInterval } from "@/lib/disclosure/owner-interval";
import { orderReport } from "@/lib/scoring/order-report";
import { RANK_SIGNIFICANCE_LEVEL } from "@/lib/scoring/paired-ranks";
import { readStoredReport } from "@/lib/scores/stored-report";
import type { ScoreReport } from "@/lib/scoring/report-schema";
import type { Track } from "@/lib/scoring/tracks";

/**
 * The one place that decides what may be learned of the test split (protocol
 * section 12). Every number derived from test-split outcomes that leaves the
 * server (pages, the props handed to client components, the JSON API,
 * exports, charts) passes through these functions first; the database keeps
 * full precision for the worker, the statistics and the maintainers.
 * docs/integrity.md explains each rule and the attack it stops.
 *
 * Pure: no database, no clock, no secrets.
 */

/**
 * - `full`: a maintainer, or anything on the dev split (its gold is public).
 * - `public`: a published test entry or a test baseline, for anyone else (its owner too).
 * - `owner`: the owner of an unpublished test submission.
 */
export type DisclosureLevel = "full" | "public" | "owner";

export const DEFAULT_MIN_GROUP_N = 30;
/** The level of every significance statement (sections 9 and 13): one constant, in lib/scoring. */
export const SIGNIFICANCE_LEVEL = RANK_SIGNIFICANCE_LEVEL;

export type DisclosureAsker = {
  split: "train" | "dev" | "test";
  /** A published entry or a baseline. */
  isPublic: boolean;
  isMaintainer: boolean;
};

export function disclosureLevelFor(asker: DisclosureAsker): DisclosureLevel {
  if (asker.isMaintainer || asker.split !== "test") return "full";
  return asker.isPublic ? "public" : "owner";
}

/** Rates to 0.1 percentage point (3 decimals as fractions), MRR to 3 decimals: half up on the stored double, as `toFixed` rounds. */
export function roundRate(value: number): number {
  return Number(value.toFixed(3));
}

export type Interval = [number, number];

function roundInterval(interval: Interval): Interval {
  return [roundRate(interval[0]), roundRate(interval[1])];
}

type Level = DisclosureLevel;
const roundIf = (level: Level, value: number): number => (level === "full" ? value : roundRate(value));

/** A headline number (the primary or unified metric of a score row) for one asker. */
export function discloseHeadline(value: number, level: Level): number {
  return roundIf(level, value);
}

export type DisclosedGroup = {
  n: number;
  /** True when the group is too small to show (n below the release's min_group_n): n only. */
  isSuppressed: boolean;
  metrics: Partial<Record<string, number | null>>;
  ci95: Partial<Record<string, Interval | null>>;
};

export type DisclosedReport = {
  scorer_version: string;
  split: "dev" | "test";
  track: Track;
  n: number;
  metrics: Partial<Record<string, number>>;
  ci95: Partial<Record<string, Interval>>;
  /** null: not disclosed to this asker (the owner of an unpublished test submission). */
  by_type: Partial<Record<EntityType, DisclosedGroup>> | null;
  by_collection: Record<string, DisclosedGroup> | null;
  disclosure: { level: Level; min_group_n: number | null };
};

export type DiscloseOptions = { level: Level; minGroupN: number };

/** Parses a stored report (validated when written) and returns what `level` may see of it. */
export function discloseStoredReport(stored: unknown, options: DiscloseOptions): DisclosedReport | null {
  const report = readStoredReport(stored);
  return report === null ? null : discloseReport(report, options);
}

export function discloseReport(raw: ScoreReport, options: DiscloseOptions): DisclosedReport {
  const report = orderReport(raw);
  const level = report.split === "test" ? options.level : "full";
  const metrics: Partial<Record<string, number>> = {};
  for (const [key, value] of Object.entries(report.metrics)) metrics[key] = roundIf(level, value);
  const ci95: Partial<Record<string, Interval>> = {};
  for (const [key, value] of Object.entries(report.ci95)) {
    // The owner's interval comes from the disclosed value alone (owner-interval.ts): the §9 one would tell more.
    const disclosed = metrics[key];
    ci95[key] = level === "full" ? value : level === "owner" && disclosed !== undefined ? roundInterval(ownerInterval(disclosed, report.n)) : roundInterval(value);
  }
  const minGroupN = level === "public" ? options.minGroupN : null;
  return {
    scorer_version: report.scorer_version,
    split: report.split,
    track: report.track,
    n: report.n,
    metrics,
    ci95,
    by_type: level === "owner" ? null : discloseTypeGroups(report, level, options.minGroupN),
    by_collection: level === "owner" ? null : discloseGroupPartition(collectionGroups(report), level, options.minGroupN),
    disclosure: { level, min_group_n: minGroupN },
  };
}

type RawGroup = { n: number; metrics: Record<string, number | null>; ci95?: Record<string, Interval | null> };

function collectionGroups(report: ScoreReport): Record<string, RawGroup> {
  return report.by_collection;
}

function discloseTypeGroups(report: ScoreReport, level: Level, minGroupN: number): Partial<Record<EntityType, DisclosedGroup>> {
  const byType: Partial<Record<EntityType, RawGroup>> = report.by_type;
  const present: Record<string, RawGroup> = {};
  for (const type of ENTITY_TYPES) {
    const group = byType[type];
    if (group !== undefined) present[type] = group;
  }
  return discloseGroupPartition(present, level, minGroupN) as Partial<Record<EntityType, DisclosedGroup>>;
}

/**
 * One partition of the samples (the entity types, or the collections). On the
 * public level a group with n < min_group_n shows n only; and when the groups
 * hidden so far hold fewer than min_group_n samples together, the smallest
 * shown groups are hidden too, because the overall numbers minus the shown
 * groups would otherwise give the hidden ones back (secondary suppression).
 * No per-group MRR on the test split: a reciprocal rank of one sample is
 * readable from a small group's MRR to many digits.
 */
function discloseGroupPartition(groups: Record<string, RawGroup>, level: Level, minGroupN: number): Record<string, DisclosedGroup> {
  const names = Object.keys(groups);
  const hidden = level === "public" ? suppressedGroups(groups, minGroupN) : new Set<string>();
  const out: Record<string, DisclosedGroup> = {};
  for (const name of names) {
    const group = groups[name]!;
    if (hidden.has(name)) {
      out[name] = { n: group.n, isSuppressed: true, metrics: {}, ci95: {} };
      continue;
    }
    out[name] = { n: group.n, isSuppressed: false, metrics: discloseGroupMetrics(group.metrics, level), ci95: discloseGroupIntervals(group.ci95 ?? {}, level) };
  }
  return out;
}

/**
 * The groups of one partition (the entity types, or the collections) that the
 * public level shows with their size only: primary and secondary suppression,
 * as in the public report. Anything else derived from a group's outcomes (a
 * type view's ranks, pairwise b and c, a timeline) must be withheld for these
 * groups too, or the public report's suppression is undone by subtraction.
 */
export function suppressedGroupNames(sizes: Readonly<Record<string, number>>, minGroupN: number): Set<string> {
  const groups: Record<string, { n: number }> = {};
  for (const [name, n] of Object.entries(sizes)) groups[name] = { n };
  return suppressedGroups(groups, minGroupN);
}

function suppressedGroups(groups: Record<string, { n: number }>, minGroupN: number): Set<string> {
  const hidden = new Set<string>();
  let hiddenTotal = 0;
  // Groups with n = 0 carry no outcome and need no protection.
  const nonEmpty = Object.entries(groups).filter(([, group]) => group.n > 0);
  for (const [name, group] of nonEmpty) {
    if (group.n < minGroupN) {
      hidden.add(name);
      hiddenTotal += group.n;
    }
  }
  const shownBySize = nonEmpty.filter(([name]) => !hidden.has(name)).sort((a, b) => a[1].n - b[1].n || a[0].localeCompare(b[0]));
  for (const [name, group] of shownBySize) {
    if (hiddenTotal === 0 || hiddenTotal >= minGroupN) break;
    hidden.add(name);
    hiddenTotal += group.n;
  }
  return hidden;
}

function discloseGroupMetrics(metrics: Record<string, number | null>, level: Level): Partial<Record<string, number | null>> {
  const out: Partial<Record<string, number | null>> = {};
  for (const [key, value] of Object.entries(metrics)) {
    if (level !== "full" && key === "mrr") continue;
    out[key] = value === null ? null : roundIf(level, value);
  }
  return out;
}

function discloseGroupIntervals(intervals: Record<string, Interval | null>, level: Level): Partial<Record<string, Interval | null>> {
  const out: Partial<Record<string, Interval | null>> = {};
  for (const [key, value] of Object.entries(intervals)) {
    if (level !== "full" && key === "mrr") continue;
    out[key] = value === null || level === "full" ? value : roundInterval(value);
  }
  return out;
}

/** A stored McNemar comparison of an entry with one baseline (protocol section 9). */
export type StoredComparison = {
  baselineId: string;
  baselineLabel: string;
  /** The Holm family (section 9): the entry's track's baselines, or every baseline on the unified metric. */
  family: "track" | "unified";
  /** The label of the identical baseline that stands for this one in the family, if any. */
  identicalTo: string | null;
  metric: string;
  b: number;
  c: number;
  chi2: number;
  p: number;
  pExact: number;
  pHolm: number;
};

export type PValueBucket = "< 0.001" | "< 0.01" | "< 0.05" | ">= 0.05";
export type Verdict = "better" | "worse" | "no significant difference";

/** The owner of an unpublished test submission learns the verdict and a bucket of the Holm-adjusted p, never b, c, chi2 or p. */
export type ComparisonVerdict = {
  kind: "verdict";
  baselineId: string;
  baselineLabel: string;
  family: StoredComparison["family"];
  identicalTo: string | null;
  metric: string;
  verdict: Verdict;
  pHolmBucket: PValueBucket;
};

export type ComparisonDetail = StoredComparison & { kind: "detail" };

export type DisclosedComparison = ComparisonVerdict | ComparisonDetail;

export function pValueBucket(p: number): PValueBucket {
  if (p < 0.001) return "< 0.001";
  if (p < 0.01) return "< 0.01";
  if (p < SIGNIFICANCE_LEVEL) return "< 0.05";
  return ">= 0.05";
}

export function verdictOf(comparison: Pick<StoredComparison, "b" | "c" | "pHolm">): Verdict {
  if (comparison.pHolm >= SIGNIFICANCE_LEVEL || comparison.b === comparison.c) return "no significant difference";
  return comparison.b > comparison.c ? "better" : "worse";
}

export function discloseComparison(comparison: StoredComparison, level: Level): DisclosedComparison {
  if (level !== "owner") return { kind: "detail", ...comparison };
  return {
    kind: "verdict",
    baselineId: comparison.baselineId,
    baselineLabel: comparison.baselineLabel,
    family: comparison.family,
    identicalTo: comparison.identicalTo,
    metric: comparison.metric,
    verdict: verdictOf(comparison),
    pHolmBucket: pValueBucket(comparison.pHolm),
  };
}
