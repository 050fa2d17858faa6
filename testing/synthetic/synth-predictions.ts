import type { Entity, EntityType, Sample } from "@/lib/core/dataset/release-schema";
import { createSeededRandom, type SeededRandom } from "@/testing/synthetic/seeded-random";

/**
 * Synthetic prediction files for a split (protocol section 4), for demos,
 * tests and load tests of the scorer. Deterministic for a seed.
 *
 * Open track: an `accuracy` share of samples get the exact name; of the rest,
 * about 15% an alias, 8% a containment variant (a token dropped, or words
 * added), 10% a token-reordered name (jaccard tier only), 5% an empty string
 * and the others another entity's name. Closed track: the gold QID is first
 * for an `accuracy` share, at rank 2..N for 45% of the rest, absent otherwise.
 */

export type PredictionTrack = "open" | "closed";

export type SynthesizePredictionsOptions = {
  samples: Sample[];
  entities: Entity[];
  track: PredictionTrack;
  /** Share of samples answered right at the strictest level (exact / rank 1), in [0, 1]. */
  accuracy: number;
  seed: number;
  /** Closed track: QIDs per ranking, 1..100 (default 100, at most the KB size). */
  rankingLength?: number;
};

export const DEFAULT_RANKING_LENGTH = 100;
export const MAX_RANKING_LENGTH = 100;

const ALIAS_SHARE = 0.15;
const CONTAINMENT_SHARE = 0.08;
const JACCARD_SHARE = 0.1;
const EMPTY_SHARE = 0.05;
const RANKED_LOWER_SHARE = 0.45;

type Context = {
  random: SeededRandom;
  entities: readonly Entity[];
  entitiesByType: ReadonlyMap<EntityType, readonly Entity[]>;
};

function normalized(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim().replace(/\s+/gu, " ");
}

function varyCase(random: SeededRandom, name: string): string {
  const roll = random.next();
  if (roll < 0.1) {
    return name.toLowerCase();
  }
  if (roll < 0.15) {
    return ` ${name.toUpperCase()} `;
  }
  return name;
}

function containmentVariant(random: SeededRandom, name: string): string {
  const tokens = name.split(" ");
  if (tokens.length >= 2 && random.chance(0.6)) {
    return (random.chance(0.5) ? tokens.slice(1) : tokens.slice(0, -1)).join(" ");
  }
  return random.pick([`the ${name} area`, `${name} (United States)`, `old ${name}`]);
}

/** Same tokens in another order: meets jaccard but not containment. */
function jaccardVariant(random: SeededRandom, name: string): string | undefined {
  const tokens = name.split(" ");
  if (tokens.length < 2) {
    return undefined;
  }
  const gold = normalized(name);
  const candidates = [[...tokens.slice(1), tokens[0] ?? ""].join(" "), [...tokens].reverse().join(" ")].filter((candidate) => {
    const p = normalized(candidate);
    return !p.includes(gold) && !gold.includes(p);
  });
  return candidates.length === 0 ? undefined : random.pick(candidates);
}

function wrongName(context: Context, gold: Entity): string {
  const sameType = context.entitiesByType.get(gold.type) ?? [];
  const pool = sameType.length > 1 && context.random.chance(0.7) ? sameType : context.entities;
  for (let attempt = 0; attempt < 10; attempt += 1) {
    const other = context.random.pick(pool);
    if (other.qid !== gold.qid && normalized(other.name) !== normalized(gold.name)) {
      return other.name;
    }
  }
  return "";
}

function openPrediction(context: Context, gold: Entity, accuracy: number): string {
  const { random } = context;
  const roll = random.next();
  if (roll < accuracy) {
    return varyCase(random, gold.name);
  }
  let rest = (roll - accuracy) / (1 - accuracy);
  if (rest < ALIAS_SHARE) {
    const aliases = gold.aliases.filter((alias) => normalized(alias) !== normalized(gold.name));
    if (aliases.length > 0) {
      return random.pick(aliases);
    }
    rest = ALIAS_SHARE;
  }
  rest -= ALIAS_SHARE;
  if (rest < CONTAINMENT_SHARE) {
    return containmentVariant(random, gold.name);
  }
  rest -= CONTAINMENT_SHARE;
  if (rest < JACCARD_SHARE) {
    return jaccardVariant(random, gold.name) ?? containmentVariant(random, gold.name);
  }
  rest -= JACCARD_SHARE;
  if (rest < EMPTY_SHARE) {
    return "";
  }
  return wrongName(context, gold);
}

function lowerRank(random: SeededRandom, length: number): number {
  // Mostly near the top (2..~20), with a tail down to the end of the ranking.
  const rank = 2 + Math.floor(-Math.log(1 - random.next()) * 6);
  return Math.min(rank, length);
}

function closedRanking(context: Context, gold: Entity, accuracy: number, length: number): string[] {
  const { random, entities } = context;
  const roll = random.next();
  let goldRank: number | undefined;
  if (roll < accuracy || entities.length < 2) {
    goldRank = 1;
  } else if ((roll - accuracy) / (1 - accuracy) < RANKED_LOWER_SHARE && length >= 2) {
    goldRank = lowerRank(random, length);
  }
  const others = new Set<string>();
  const wanted = Math.min(goldRank === undefined ? length : length - 1, entities.length - 1);
  while (others.size < wanted) {
    const candidate = random.pick(entities).qid;
    if (candidate !== gold.qid) {
      others.add(candidate);
    }
  }
  const ranking = [...others];
  if (goldRank !== undefined) {
    ranking.splice(goldRank - 1, 0, gold.qid);
  }
  return ranking;
}

/** One JSON line per sample, in the samples' order: {"id","prediction"} or {"id","ranking"}. */
export function synthesizePredictions(options: SynthesizePredictionsOptions): string[] {
  const { samples, entities, track, accuracy, seed } = options;
  if (!(accuracy >= 0 && accuracy <= 1)) {
    throw new RangeError(`accuracy must be in [0, 1], got ${accuracy}`);
  }
  const rankingLength = options.rankingLength ?? DEFAULT_RANKING_LENGTH;
  if (!Number.isInteger(rankingLength) || rankingLength < 1 || rankingLength > MAX_RANKING_LENGTH) {
    throw new RangeError(`rankingLength must be an integer in 1..${MAX_RANKING_LENGTH}, got ${rankingLength}`);
  }
  const entityByQid = new Map(entities.map((entity) => [entity.qid, entity]));
  const entitiesByType = new Map<EntityType, Entity[]>();
  for (const entity of entities) {
    const list = entitiesByType.get(entity.type) ?? [];
    list.push(entity);
    entitiesByType.set(entity.type, list);
  }
  const context: Context = { random: createSeededRandom(seed), entities, entitiesByType };
  const length = Math.min(rankingLength, entities.length);
  return samples.map((sample) => {
    const gold = entityByQid.get(sample.qid);
    if (gold === undefined) {
      throw new Error(`sample ${sample.id}: qid ${sample.qid} is not in the KB`);
    }
    if (track === "open") {
      return JSON.stringify({ id: sample.id, prediction: openPrediction(context, gold, accuracy) });
    }
    return JSON.stringify({ id: sample.id, ranking: closedRanking(context, gold, accuracy, length) });
  });
}
