import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { roundTo } from "@/lib/core/format/round";
import {
  mrrToThousandths,
  perturbGroup,
  rateToPoints,
  rateToTenths,
  shownValueInterval,
  type NoiseContext,
} from "@/lib/core/disclosure/perturb";
import { orderReport } from "@/lib/core/scoring/order-report";
import { RANK_SIGNIFICANCE_LEVEL } from "@/lib/core/ranking/paired-ranks";
import { readStoredReport } from "@/lib/core/scoring/stored-report";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import { PRIMARY_METRIC, UNIFIED_METRIC, type Track } from "@/lib/core/scoring/tracks";

/**
 * The one place that decides what may be learned of the test split (protocol
 * section 12). Every number derived from test-split outcomes that leaves the
 * server (pages, the props handed to client components, the JSON API,
 * exports, charts) passes through these functions first; the database keeps
 * full precision for the worker, the statistics and the maintainers.
 * docs/integrity.md explains each rule and the attack it stops.
 *
 * Pure: no database, no clock; the slice secret that keys the public
 * numbers' noise (perturb.ts) comes in as an argument.
 */

/**
 * - `full`: a maintainer (both slices and the whole split, unrounded), or anything on the dev split (its gold is public).
 * - `public`: a published test entry or a test baseline, for anyone else (its owner too): the ranking slice.
 * - `owner`: the owner of an unpublished test submission: the feedback slice.
 */
export type DisclosureLevel = "full" | "public" | "owner";

export const DEFAULT_MIN_GROUP_N = 30;
/** Section 12 defaults of dataset.json: the feedback slice's share of the test split, and entries per account, track and release name. */
export const DEFAULT_FEEDBACK_FRACTION = 0.25;
export const DEFAULT_MAX_ENTRIES_PER_ACCOUNT = 3;
/** The level of every significance statement (sections 9 and 13): one constant, in lib/core/scoring. */
export const SIGNIFICANCE_LEVEL = RANK_SIGNIFICANCE_LEVEL;

type DisclosureAsker = {
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
  return roundTo(value, 3);
}

/**
 * Public per-type and per-collection rates of a group with fewer ranking
 * samples than this are rounded to 1 point (section 12): at 0.1 point one
 * sample of a 316-sample group moves the shown number.
 */
const COARSE_GROUP_BELOW_N = 1000;

/** A public group rate: to 1 point (2 decimals as a fraction) below `coarseBelowN` samples, else as `roundRate`. */
export function roundGroupRate(value: number, n: number, coarseBelowN: number = COARSE_GROUP_BELOW_N): number {
  return n < coarseBelowN ? roundTo(value, 2) : roundRate(value);
}

/**
 * A release whose test split has at least this many samples is protected
 * (section 12); below it the test gold is illustrative.
 */
export const PROTECTED_TEST_SIZE = 1000;

/**
 * How public group numbers of a release are shown (section 12): groups below
 * min_group_n show n only, rates to 1 point below 1,000 ranking samples. Since
 * v1.3 the counts behind them are perturbed (perturb.ts), so one sample no
 * longer moves a shown number in a way a reader can rely on, and the
 * protocol's floor is the rule.
 */
export type GroupPolicy = { minGroupN: number; coarseBelowN: number };

export function publicGroupPolicy(release: { minGroupN: number }): GroupPolicy {
  return { minGroupN: release.minGroupN, coarseBelowN: COARSE_GROUP_BELOW_N };
}

/** Which samples a disclosed report is made of (section 12). */
type ReportSlice = "feedback" | "ranking" | "whole";

/** What is stored for a score: the whole split's report and, for a test file, its two slices' (null for dev and for scores made before the slices). */
type StoredScoreReports = { report: unknown; feedbackReport: unknown; rankingReport: unknown };

type Interval = [number, number];

function roundInterval(interval: Interval): Interval {
  return [roundRate(interval[0]), roundRate(interval[1])];
}

type Level = DisclosureLevel;
const roundIf = (level: Level, value: number): number => (level === "full" ? value : roundRate(value));

/** The headline columns of a Score row: the whole split's and, on the test split, the feedback slice's; the ranking slice's report. */
type StoredHeadlines = {
  primary: number;
  unified: number;
  feedbackPrimary: number | null;
  rankingReport: unknown;
};

/**
 * A headline number (the primary or unified metric of a score row) for one
 * asker: the owner's is the feedback slice's, rounded; the public's the
 * ranking slice's, from its perturbed count (section 12, v1.3); null when the
 * row has no such slice (a score from before the slices, stale until
 * re-scored) or the owner asks for the unified metric.
 */
export function discloseHeadline(
  score: StoredHeadlines,
  metric: "primary" | "unified",
  level: Level,
  split: "train" | "dev" | "test",
  perturbation?: Perturbation,
): number | null {
  if (split !== "test" || level === "full") return metric === "primary" ? score.primary : score.unified;
  if (level === "owner") return metric === "primary" && score.feedbackPrimary !== null ? roundRate(score.feedbackPrimary) : null;
  const headline = publicHeadlineCount(score, metric, requirePerturbation({ level, minGroupN: 0, perturbation }));
  return headline === null ? null : rateToTenths(headline.count, headline.n);
}

/** The perturbed count behind a public headline and its n: lists order by count / n (ties by entry id), never by a stored value. */
export function publicHeadlineCount(score: Pick<StoredHeadlines, "rankingReport">, metric: "primary" | "unified", perturbation: Perturbation): { count: number; n: number } | null {
  const ranking = readStoredReport(score.rankingReport);
  if (ranking === null) return null;
  const key = metric === "primary" ? PRIMARY_METRIC[ranking.track] : UNIFIED_METRIC[ranking.track];
  const count = publicCountsOf(ranking, perturbation).overall[key];
  return count === undefined || ranking.n === 0 ? null : { count, n: ranking.n };
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
  /** The public group policy it was disclosed under (publicGroupPolicy): both null below the public level. */
  disclosure: { level: Level; min_group_n: number | null; coarse_below_n: number | null; slice: ReportSlice };
};

/**
 * The perturbed counts behind a public report (section 12, v1.3): overall and
 * per entity type, after the running maximum and before rounding. Every public
 * order, best and pair direction is taken from these; they never leave the
 * server themselves (a perturbed count is finer than its rounded rate).
 */
export type PublicCounts = {
  n: number;
  overall: Readonly<Record<string, number>>;
  byType: Partial<Record<EntityType, { n: number; counts: Readonly<Record<string, number>> }>>;
};

/** A maintainer's view of a test score: the whole split, and each slice, unrounded; a public one carries its perturbed counts. */
type DisclosedScore = { report: DisclosedReport; slices: { feedback: DisclosedReport; ranking: DisclosedReport } | null; publicCounts?: PublicCounts };

/** Whose numbers the public ones are, and the noise of the release (section 12): required at the public level. */
export type Perturbation = { context: NoiseContext; entryId: string };

/** `minGroupN` and `coarseBelowN`: the release's public group policy (publicGroupPolicy); `perturbation` for the public level. */
type DiscloseOptions = { level: Level; minGroupN: number; coarseBelowN?: number; perturbation?: Perturbation };

/**
 * What `level` may see of a stored score (section 12): the owner of an
 * unpublished test file its feedback slice, the public its ranking slice, a
 * maintainer the whole split with both slices beside it; a dev file's whole
 * report to anyone. Null when the slice asked for is not stored (a score made
 * before the slices, stale until re-scored) or a report does not parse.
 */
export function discloseStoredScore(stored: StoredScoreReports, options: DiscloseOptions): DisclosedScore | null {
  const whole = readStoredReport(stored.report);
  if (whole === null) return null;
  if (whole.split !== "test") return { report: discloseReport(whole, { ...options, level: "full" }, "whole"), slices: null };
  const feedback = readStoredReport(stored.feedbackReport);
  const ranking = readStoredReport(stored.rankingReport);
  if (options.level === "owner") return feedback === null ? null : { report: discloseReport(feedback, options, "feedback"), slices: null };
  if (options.level === "public") {
    if (ranking === null) return null;
    const counts = publicCountsOf(ranking, requirePerturbation(options));
    return { report: disclosePublicReport(ranking, options, counts), slices: null, publicCounts: counts };
  }
  const slices = feedback === null || ranking === null ? null : { feedback: discloseReport(feedback, options, "feedback"), ranking: discloseReport(ranking, options, "ranking") };
  return { report: discloseReport(whole, options, "whole"), slices };
}

/**
 * A disclosed interval: a maintainer's is the stored §9 one; every other is
 * made from the shown value and n alone (Binomial(n, v); for public numbers
 * with the noise's distribution added), and contains the shown value.
 */
function discloseInterval(level: Level, stored: Interval, shown: number | undefined, n: number): Interval {
  if (level === "full" || shown === undefined) return stored;
  return roundInterval(shownValueInterval(shown, n, level === "public"));
}

function requirePerturbation(options: DiscloseOptions): Perturbation {
  if (options.perturbation === undefined) throw new Error("a public ranking-slice number needs its perturbation (protocol section 12): pass the entry id and the release's noise context");
  return options.perturbation;
}

/** The exact counts behind a group's rates: right answers per metric (for MRR the sum of reciprocal ranks). */
function exactCounts(metrics: Readonly<Record<string, number | null>>, n: number, withMrr: boolean): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const [key, value] of Object.entries(metrics)) {
    if (value === null || (key === "mrr" && !withMrr)) continue;
    counts[key] = key === "mrr" ? value * n : Math.round(value * n);
  }
  return counts;
}

/** Section 12's perturbed counts of a ranking-slice report: overall, and per type (the type views rank on these). */
export function publicCountsOf(raw: ScoreReport, perturbation: Perturbation): PublicCounts {
  const { context, entryId } = perturbation;
  const byType: PublicCounts["byType"] = {};
  for (const type of ENTITY_TYPES) {
    const group = raw.by_type[type];
    if (group === undefined || group.n === 0) continue;
    byType[type] = { n: group.n, counts: perturbGroup(context, entryId, `type/${type}`, group.n, exactCounts(group.metrics, group.n, false)) };
  }
  return { n: raw.n, overall: perturbGroup(context, entryId, "all", raw.n, exactCounts(raw.metrics, raw.n, true)), byType };
}

/** A public rate from its perturbed count: MRR to 3 decimals, a group below `coarseBelowN` to 1 point, else to 0.1 point. */
function publicRate(metric: string, count: number, n: number, coarse: boolean): number {
  if (metric === "mrr") return mrrToThousandths(count, n);
  return coarse ? rateToPoints(count, n) : rateToTenths(count, n);
}

/** The public report of a ranking slice (section 12): every number from perturbed counts. */
function disclosePublicReport(raw: ScoreReport, options: DiscloseOptions, counts: PublicCounts): DisclosedReport {
  const report = orderReport(raw);
  const perturbation = requirePerturbation(options);
  const coarseBelowN = options.coarseBelowN ?? COARSE_GROUP_BELOW_N;
  const metrics: Partial<Record<string, number>> = {};
  const ci95: Partial<Record<string, Interval>> = {};
  for (const key of Object.keys(report.metrics)) {
    const count = counts.overall[key];
    if (count === undefined) continue;
    metrics[key] = publicRate(key, count, report.n, false);
    ci95[key] = discloseInterval("public", [0, 0], metrics[key], report.n);
  }
  const groupOptions = { ...options, level: "public" as const };
  const typeGroups: Record<string, RawGroup> = {};
  for (const type of ENTITY_TYPES) {
    const group = report.by_type[type];
    if (group !== undefined) typeGroups[type] = group;
  }
  const shownGroup = (prefix: "type" | "collection") => (name: string, group: RawGroup): DisclosedGroup => {
    const perturbed =
      prefix === "type" && counts.byType[name as EntityType] !== undefined
        ? counts.byType[name as EntityType]!.counts
        : perturbGroup(perturbation.context, perturbation.entryId, `${prefix}/${name}`, group.n, exactCounts(group.metrics, group.n, false));
    const shown: Partial<Record<string, number | null>> = {};
    const intervals: Partial<Record<string, Interval | null>> = {};
    for (const [key, value] of Object.entries(group.metrics)) {
      if (key === "mrr") continue;
      const count = perturbed[key];
      shown[key] = value === null || count === undefined ? null : publicRate(key, count, group.n, group.n < coarseBelowN);
      intervals[key] = shown[key] == null ? null : discloseInterval("public", [0, 0], shown[key] ?? undefined, group.n);
    }
    return { n: group.n, isSuppressed: false, metrics: shown, ci95: intervals };
  };
  return {
    scorer_version: report.scorer_version,
    split: report.split,
    track: report.track,
    n: report.n,
    metrics,
    ci95,
    by_type: discloseGroupPartition(typeGroups, "public", groupOptions, shownGroup("type")) as Partial<Record<EntityType, DisclosedGroup>>,
    by_collection: discloseGroupPartition(collectionGroups(report), "public", groupOptions, shownGroup("collection")),
    disclosure: { level: "public", min_group_n: options.minGroupN, coarse_below_n: coarseBelowN, slice: "ranking" },
  };
}

export function discloseReport(raw: ScoreReport, options: DiscloseOptions, slice: ReportSlice): DisclosedReport {
  const report = orderReport(raw);
  const level = report.split === "test" ? options.level : "full";
  if (level === "public") return disclosePublicReport(raw, options, publicCountsOf(raw, requirePerturbation(options)));
  const metrics: Partial<Record<string, number>> = {};
  for (const [key, value] of Object.entries(report.metrics)) metrics[key] = roundIf(level, value);
  const ci95: Partial<Record<string, Interval>> = {};
  for (const [key, value] of Object.entries(report.ci95)) ci95[key] = discloseInterval(level, value, metrics[key], report.n);
  return {
    scorer_version: report.scorer_version,
    split: report.split,
    track: report.track,
    n: report.n,
    metrics,
    ci95,
    by_type: level === "owner" ? null : discloseTypeGroups(report, level, options),
    by_collection: level === "owner" ? null : discloseGroupPartition(collectionGroups(report), level, options),
    disclosure: { level, min_group_n: null, coarse_below_n: null, slice },
  };
}

type RawGroup = { n: number; metrics: Record<string, number | null>; ci95?: Record<string, Interval | null> };

function collectionGroups(report: ScoreReport): Record<string, RawGroup> {
  return report.by_collection;
}

function discloseTypeGroups(report: ScoreReport, level: Level, policy: DiscloseOptions): Partial<Record<EntityType, DisclosedGroup>> {
  const byType: Partial<Record<EntityType, RawGroup>> = report.by_type;
  const present: Record<string, RawGroup> = {};
  for (const type of ENTITY_TYPES) {
    const group = byType[type];
    if (group !== undefined) present[type] = group;
  }
  return discloseGroupPartition(present, level, policy) as Partial<Record<EntityType, DisclosedGroup>>;
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
function discloseGroupPartition(
  groups: Record<string, RawGroup>,
  level: Level,
  policy: DiscloseOptions,
  showGroup?: (name: string, group: RawGroup) => DisclosedGroup,
): Record<string, DisclosedGroup> {
  const names = Object.keys(groups);
  const hidden = level === "public" ? suppressedGroups(groups, policy.minGroupN) : new Set<string>();
  const out: Record<string, DisclosedGroup> = {};
  for (const name of names) {
    const group = groups[name]!;
    if (hidden.has(name)) {
      out[name] = { n: group.n, isSuppressed: true, metrics: {}, ci95: {} };
      continue;
    }
    if (showGroup !== undefined) {
      out[name] = showGroup(name, group);
      continue;
    }
    const metrics = discloseGroupMetrics(group.metrics, level, group.n, policy.coarseBelowN ?? COARSE_GROUP_BELOW_N);
    out[name] = { n: group.n, isSuppressed: false, metrics, ci95: discloseGroupIntervals(group.ci95 ?? {}, level, metrics, group.n) };
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

function discloseGroupMetrics(metrics: Record<string, number | null>, level: Level, n: number, coarseBelowN: number): Partial<Record<string, number | null>> {
  const out: Partial<Record<string, number | null>> = {};
  for (const [key, value] of Object.entries(metrics)) {
    if (level !== "full" && key === "mrr") continue;
    out[key] = value === null || level === "full" ? value : roundGroupRate(value, n, coarseBelowN);
  }
  return out;
}

function discloseGroupIntervals(
  intervals: Record<string, Interval | null>,
  level: Level,
  shown: Partial<Record<string, number | null>>,
  n: number,
): Partial<Record<string, Interval | null>> {
  const out: Partial<Record<string, Interval | null>> = {};
  for (const [key, value] of Object.entries(intervals)) {
    if (level !== "full" && key === "mrr") continue;
    out[key] = value === null ? null : discloseInterval(level, value, shown[key] ?? undefined, n);
  }
  return out;
}

/** A stored McNemar comparison of an entry with one baseline (protocol section 9). */
type StoredComparison = {
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

/** The only form a public (or an unpublished owner's) p-value takes (protocol §12). */
export const P_VALUE_BUCKETS = ["< 0.001", "< 0.01", "< 0.05", ">= 0.05"] as const;
export type PValueBucket = (typeof P_VALUE_BUCKETS)[number];
export type Verdict = "better" | "worse" | "no significant difference";

/** The owner of an unpublished test submission learns the verdict and a bucket of the Holm-adjusted p, never b, c, chi2 or p. */
type ComparisonVerdict = {
  kind: "verdict";
  baselineId: string;
  baselineLabel: string;
  family: StoredComparison["family"];
  identicalTo: string | null;
  metric: string;
  verdict: Verdict;
  pHolmBucket: PValueBucket;
};

type ComparisonDetail = StoredComparison & { kind: "detail" };

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

/**
 * The one public reading of a pair of entries (sections 12 and 13): the
 * verdict of the view's section 13 test, the p of the test that decides as a
 * bucket, and the difference of the two shown (rounded) values. Never b, c,
 * chi2 or an exact p: an exact b against a baseline that is never right is an
 * entry's exact count.
 */
export type PairReading = { verdict: Verdict; pBucket: PValueBucket; difference: number };

export function readPair(pair: { verdict: Verdict; pHolm: number }, shownValue: number | null, shownOtherValue: number | null): PairReading {
  const difference = shownValue === null || shownOtherValue === null ? 0 : roundRate(shownValue - shownOtherValue);
  // No verdict, no significant test: a pair whose counts point against the shown estimates (the unified view compares
  // two entries of one track on their track's metric but orders them by the alias metric), or whose estimates tie, may
  // have a small two-sided p, but no test says the one ahead is better, so the sentence never reads "not significantly
  // different (p < 0.01)".
  return { verdict: pair.verdict, pBucket: pair.verdict === "no significant difference" ? ">= 0.05" : pValueBucket(pair.pHolm), difference };
}

/** A stored section 9 comparison for one asker: counts and exact p for a maintainer or on dev, a verdict with a p bucket for anyone else. */
export function discloseComparison(comparison: StoredComparison, level: Level): DisclosedComparison {
  if (level === "full") return { kind: "detail", ...comparison };
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
