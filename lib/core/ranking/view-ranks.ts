import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { suppressedGroupNames } from "@/lib/core/disclosure/disclose";
import { countOnlyFirst, packBits, type Bitset } from "@/lib/core/scoring/bitset";
import { correctnessVector, type ComparisonMetric } from "@/lib/core/scoring/compare";
import { PRIMARY_METRIC, UNIFIED_METRIC, type Track } from "@/lib/core/scoring/tracks";
import { pairKey, perturbPair } from "@/lib/core/disclosure/perturb";
import { rankFromPairs, type PairedRanks } from "@/lib/core/ranking/paired-ranks";
import type { EntrySource } from "../leaderboard/leaderboard-types";

/**
 * The paired tests of one leaderboard view (protocol section 13), as the
 * public sees them (section 12, v1.3): each entry's point estimate is its
 * perturbed count `k'` of the view's metric on the view's group; a pair's
 * `b'`, `c'` come from the two entries' perturbed counts of the compared metric
 * (the track's primary metric for two entries of one track, `unified` across
 * tracks) and a perturbed discordant total. Entries scored against another
 * gold (stale) are not ranked. A
 * type view whose type the public report does not show (section 12: too
 * small, or hidden with the small ones so that the overall numbers minus the
 * shown types cannot give them back) has no ranks.
 */

export type ViewRanks = {
  /** Index of each ranked entry in `paired`. */
  indexOf: ReadonlyMap<string, number>;
  paired: PairedRanks;
};

type ViewRankInput = {
  entries: readonly EntrySource[];
  metric: ComparisonMetric;
  type: EntityType | null;
  goldTypes: readonly EntityType[];
  goldSha256: string | null;
  minGroupN: number;
  /** The noise of a pair's key (section 12): `noiseOf` with the release's context; zero-noise tests pass their own. */
  noise: (key: string) => number;
};

/**
 * Whether a type view may show numbers derived from its samples' outcomes: the
 * type has samples and the public report shows its metrics. Its pairwise b and
 * c otherwise give the suppressed groups back: the overall b minus the b of
 * every shown type view is the b of the hidden types.
 */
export function isTypeDisclosed(goldTypes: readonly EntityType[], type: EntityType, minGroupN: number): boolean {
  const sizes: Record<string, number> = {};
  for (const name of ENTITY_TYPES) sizes[name] = 0;
  for (const sampleType of goldTypes) sizes[sampleType] = (sizes[sampleType] ?? 0) + 1;
  return (sizes[type] ?? 0) > 0 && !suppressedGroupNames(sizes, minGroupN).has(type);
}

/** The report metric an entry of `track` is read on for a comparison metric. */
function reportKeyOf(metric: ComparisonMetric, track: Track): string {
  return metric === "unified" ? UNIFIED_METRIC[track] : metric;
}

/** The compared metric of a pair (section 12): the track's primary metric for two entries of one track, in any view; `unified` across tracks. */
function comparedMetricOf(a: Track, b: Track): ComparisonMetric {
  return a === b ? PRIMARY_METRIC[a] : "unified";
}

/** An entry's perturbed count of a report metric on the view's group (overall, or one type). */
function publicCountOf(entry: EntrySource, key: string, type: EntityType | null): number | undefined {
  return type === null ? entry.publicCounts.overall[key] : entry.publicCounts.byType[type]?.counts[key];
}

/**
 * An entry's public point estimate on a view metric and group, unrounded: its
 * perturbed count over the group's n (section 12: every public order and best
 * is taken from these, ties by entry id). Null when the report has none.
 */
export function publicOrderValueOf(entry: EntrySource, metric: ComparisonMetric, type: EntityType | null): number | null {
  const count = publicCountOf(entry, reportKeyOf(metric, entry.track), type);
  const n = type === null ? entry.publicCounts.n : entry.publicCounts.byType[type]?.n;
  return count === undefined || n === undefined || n === 0 ? null : count / n;
}

export function rankView(input: ViewRankInput): ViewRanks | null {
  const { goldTypes, type } = input;
  const keep = type === null ? null : goldTypes.map((sampleType) => sampleType === type);
  const size = keep === null ? goldTypes.length : keep.filter(Boolean).length;
  if (size === 0 || (type !== null && !isTypeDisclosed(goldTypes, type, input.minGroupN))) return null;
  const ranked = input.entries.filter(
    (entry) =>
      entry.score.goldSha256 === input.goldSha256 &&
      entry.outcomes.codes.length === goldTypes.length &&
      publicCountOf(entry, reportKeyOf(input.metric, entry.track), type) !== undefined,
  );
  if (ranked.length === 0) return null;
  const group = type === null ? "all" : `type/${type}`;
  const bitsCache = new Map<string, Bitset>();
  const bitsOf = (index: number, metric: ComparisonMetric): Bitset => {
    const cacheKey = `${index}/${metric}`;
    let bits = bitsCache.get(cacheKey);
    if (bits === undefined) {
      const vector = correctnessVector(ranked[index]!.outcomes, metric);
      bits = packBits(keep === null ? vector : vector.filter((_, at) => keep[at]));
      bitsCache.set(cacheKey, bits);
    }
    return bits;
  };
  const count = ranked.length;
  const right = Float64Array.from(ranked, (entry) => publicCountOf(entry, reportKeyOf(input.metric, entry.track), type)!);
  const onlyFirst = new Int32Array(count * count);
  for (let i = 0; i < count; i += 1) {
    for (let j = i + 1; j < count; j += 1) {
      const a = ranked[i]!;
      const b = ranked[j]!;
      const metric = comparedMetricOf(a.track, b.track);
      const d = publicCountOf(a, reportKeyOf(metric, a.track), type)! - publicCountOf(b, reportKeyOf(metric, b.track), type)!;
      const onlyA = countOnlyFirst(bitsOf(i, metric).words, bitsOf(j, metric).words);
      const onlyB = countOnlyFirst(bitsOf(j, metric).words, bitsOf(i, metric).words);
      const shown = perturbPair(d, onlyA + onlyB, input.noise(pairKey(a.id, b.id, metric, group)));
      onlyFirst[i * count + j] = shown.b;
      onlyFirst[j * count + i] = shown.c;
    }
  }
  return { indexOf: new Map(ranked.map((entry, index) => [entry.id, index])), paired: rankFromPairs({ ids: ranked.map((entry) => entry.id), n: size, right, onlyFirst }) };
}
