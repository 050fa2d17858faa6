import { holmAdjust } from "./holm";
import { mcnemarTest, type McNemarResult } from "./mcnemar";
import { closedMetricValue, openMetricValue } from "./metric-values";
import type { SampleOutcomes } from "./outcome-codes";
import { PRIMARY_METRIC, UNIFIED_METRIC, type Track } from "./tracks";

/**
 * Paired comparison of two systems on the same split (section 9): one binary
 * per-sample outcome, the track's primary metric when both are of one track,
 * the unified alias-aware top-1 metric across tracks.
 */

export type ComparisonMetric = "alias" | "hit@1" | "unified";

type PairedComparison = McNemarResult & { metric: ComparisonMetric };

/** One row of a report's `comparisons` (section 11). */
type Comparison = PairedComparison & { baseline: string; p_holm: number };

export type NamedOutcomes = { name: string; outcomes: SampleOutcomes };

export function comparisonMetricFor(entry: Track, baseline: Track): ComparisonMetric {
  return entry === baseline ? PRIMARY_METRIC[entry] : "unified";
}

/** 1 where the sample is right on `metric`, else 0, in gold order. */
export function correctnessVector(outcomes: SampleOutcomes, metric: ComparisonMetric): Uint8Array {
  const isRight = correctnessTable(outcomes.track, metric);
  return outcomes.codes.map((code) => isRight[code] ?? 0);
}

/** For each of the 256 codes, 1 if a sample with that code is right on `metric`. */
function correctnessTable(track: Track, metric: ComparisonMetric): Uint8Array {
  const table = new Uint8Array(256);
  const isRight = correctnessOf(track, metric);
  for (let code = 0; code < table.length; code += 1) {
    table[code] = isRight(code) ? 1 : 0;
  }
  return table;
}

function correctnessOf(track: Track, metric: ComparisonMetric): (code: number) => boolean {
  if (metric === "unified") {
    if (track === "open") {
      return (code) => openMetricValue(UNIFIED_METRIC.open, code) === 1;
    }
    return (code) => closedMetricValue(UNIFIED_METRIC.closed, code) === 1;
  }
  if (track === "open" && metric === "alias") {
    return (code) => openMetricValue("alias", code) === 1;
  }
  if (track === "closed" && metric === "hit@1") {
    return (code) => closedMetricValue("hit@1", code) === 1;
  }
  throw new Error(`metric ${metric} does not apply to the ${track}-world track`);
}

/** Discordant pairs of two binary vectors: b = A right and B wrong, c = A wrong and B right. */
export function countDiscordant(a: Uint8Array, b: Uint8Array): { b: number; c: number } {
  if (a.length !== b.length) {
    throw new Error(`cannot compare outcomes of ${a.length} and ${b.length} samples`);
  }
  let onlyA = 0;
  let onlyB = 0;
  for (let i = 0; i < a.length; i += 1) {
    const right = a[i] ?? 0;
    const other = b[i] ?? 0;
    if (right > other) {
      onlyA += 1;
    } else if (right < other) {
      onlyB += 1;
    }
  }
  return { b: onlyA, c: onlyB };
}

/** McNemar of `entry` against `baseline` on the metric their tracks call for. */
export function compareOutcomes(entry: SampleOutcomes, baseline: SampleOutcomes): PairedComparison {
  const metric = comparisonMetricFor(entry.track, baseline.track);
  const { b, c } = countDiscordant(correctnessVector(entry, metric), correctnessVector(baseline, metric));
  return { metric, ...mcnemarTest(b, c) };
}

/** Whether two outcome vectors are the same sample by sample. */
function isSameVector(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * For each member of a family, the index of the first member with the same
 * metric and the same per-sample outcome vector (itself when it is the first).
 * Section 9: identical baselines count once in the Holm family.
 */
function firstIdenticalIndex(members: readonly { metric: ComparisonMetric; vector: Uint8Array }[]): number[] {
  return members.map((member, index) => {
    for (let earlier = 0; earlier < index; earlier += 1) {
      const other = members[earlier]!;
      if (other.metric === member.metric && isSameVector(other.vector, member.vector)) return earlier;
    }
    return index;
  });
}

/**
 * Comparisons with a family of baselines, in their order, p-values
 * Holm-adjusted across the family (section 9). Baselines whose outcome
 * vectors on the compared metric are identical count once: the first of them
 * (in the order given) stands for the rest, which get its adjusted p.
 */
export function compareWithBaselines(entry: SampleOutcomes, baselines: readonly NamedOutcomes[]): Comparison[] {
  return compareWithFamily(entry, baselines).map(({ identical_to: _identicalTo, ...row }) => row);
}

/** A comparison row with the baseline that stands for this one in the Holm family (null when it stands for itself). */
export type FamilyComparison = Comparison & { identical_to: string | null };

/**
 * `compareWithBaselines`, saying which baselines were counted once. With
 * `metric`, every baseline is compared on that metric (the unified view
 * compares same-track baselines on the unified metric too).
 */
export function compareWithFamily(entry: SampleOutcomes, baselines: readonly NamedOutcomes[], options: { metric?: ComparisonMetric } = {}): FamilyComparison[] {
  // The entry's vector is the same for every baseline of a metric; build it once.
  const entryVectors = new Map<ComparisonMetric, Uint8Array>();
  const members = baselines.map((baseline) => {
    const metric = options.metric ?? comparisonMetricFor(entry.track, baseline.outcomes.track);
    let entryVector = entryVectors.get(metric);
    if (entryVector === undefined) {
      entryVector = correctnessVector(entry, metric);
      entryVectors.set(metric, entryVector);
    }
    const vector = correctnessVector(baseline.outcomes, metric);
    const { b, c } = countDiscordant(entryVector, vector);
    return { metric, vector, test: mcnemarTest(b, c) };
  });
  const representative = firstIdenticalIndex(members);
  const distinct = members.flatMap((_, index) => (representative[index] === index ? [index] : []));
  const adjustedDistinct = holmAdjust(distinct.map((index) => members[index]!.test.p));
  const adjustedOf = new Map(distinct.map((index, k) => [index, adjustedDistinct[k] ?? 1]));
  return members.map((member, i) => ({
    baseline: baselines[i]?.name ?? "",
    metric: member.metric,
    b: member.test.b,
    c: member.test.c,
    chi2: member.test.chi2,
    p: member.test.p,
    p_exact: member.test.p_exact,
    p_holm: adjustedOf.get(representative[i] ?? i) ?? 1,
    identical_to: representative[i] === i ? null : (baselines[representative[i] ?? i]?.name ?? null),
  }));
}
