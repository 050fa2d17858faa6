import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { suppressedGroupNames } from "@/lib/core/disclosure/disclose";
import { packBits } from "@/lib/core/scoring/bitset";
import { correctnessVector, type ComparisonMetric } from "@/lib/core/scoring/compare";
import { computePairedRanks, type PairedRanks } from "@/lib/core/ranking/paired-ranks";
import type { EntrySource } from "../leaderboard/leaderboard-types";

/**
 * The paired tests of one leaderboard view (protocol section 13): every
 * ranked entry's binary outcome on the view's metric, restricted to the
 * view's entity type, and the ranks and pair tests computed from them by
 * lib/core/scoring. Entries scored against another gold (stale) are not ranked. A
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

export function rankView(input: ViewRankInput): ViewRanks | null {
  const { goldTypes, type } = input;
  const keep = type === null ? null : goldTypes.map((sampleType) => sampleType === type);
  const size = keep === null ? goldTypes.length : keep.filter(Boolean).length;
  if (size === 0 || (type !== null && !isTypeDisclosed(goldTypes, type, input.minGroupN))) return null;
  const ranked = input.entries.filter((entry) => entry.score.goldSha256 === input.goldSha256 && entry.outcomes.codes.length === goldTypes.length);
  if (ranked.length === 0) return null;
  const systems = ranked.map((entry) => {
    const vector = correctnessVector(entry.outcomes, input.metric);
    return { id: entry.id, bits: packBits(keep === null ? vector : vector.filter((_, index) => keep[index])) };
  });
  return { indexOf: new Map(ranked.map((entry, index) => [entry.id, index])), paired: computePairedRanks(systems) };
}
