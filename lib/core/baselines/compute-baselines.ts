import type { Entity, Sample } from "@/lib/core/dataset/release-schema";
import { MAX_PREDICTION_LENGTH, MAX_RANKING_LENGTH } from "@/lib/core/scoring/limits";
import type { Track } from "@/lib/core/scoring/tracks";
import { createBm25Index, searchTerms, type Bm25Index } from "./bm25";
import { tokenize } from "./tokenize";

/**
 * The platform's own baselines for a release (docs/baselines.md): prediction
 * files computed from the KB and the split alone, scored like any submission.
 * Pure and deterministic: the same inputs always give the same lines.
 */

export const BASELINE_KEYS = ["bm25-names", "bm25-descriptions", "bm25-open", "prior-train-frequency"] as const;
type BaselineKey = (typeof BASELINE_KEYS)[number];

export type BaselineRun = {
  key: BaselineKey;
  /** Human name for tables, e.g. "BM25 over entity names (C1-style)". */
  label: string;
  /** One paragraph for the leaderboard: what the baseline does. */
  description: string;
  track: Track;
  /** A prediction file (protocol section 4): one JSON line per sample, in the order of `samples`. */
  lines: string[];
};

export type BaselineEntity = Pick<Entity, "qid" | "name" | "aliases" | "description" | "description_wiki">;
export type BaselineSample = Pick<Sample, "id" | "implicit_text">;
type BaselineTrainSample = Pick<Sample, "qid">;

type ComputeBaselinePredictionsOptions = {
  /** The KB, in release order (the order breaks ties). */
  entities: readonly BaselineEntity[];
  /** The train split: the gold entities the frequency prior counts. May be empty. */
  trainSamples: readonly BaselineTrainSample[];
  /** The split to predict (dev or test); its gold `qid` is never read. */
  samples: readonly BaselineSample[];
  /** QIDs per closed-world ranking, 1 to 100 (protocol section 4). */
  rankingLength?: number;
};

type BaselineInfo = Pick<BaselineRun, "label" | "description" | "track">;

/** Label, leaderboard paragraph and track of each baseline, for rankings of `rankingLength` QIDs. */
function describeBaselines(rankingLength: number = MAX_RANKING_LENGTH): Record<BaselineKey, BaselineInfo> {
  const bm25 = "Okapi BM25 (k1 = 1.2, b = 0.75, lower-cased NFKC words without stop words, plurals folded)";
  const padding = `the top ${rankingLength} form the ranking, padded with the train-frequency prior when fewer entities share a word with the text`;
  return {
    "bm25-names": {
      label: "BM25 over entity names (C1-style)",
      description:
        "Lexical counterpart of the paper's C1 (name representation). Each KB entity is a document made of its name and aliases; " +
        `the implicit text is the query. ${bm25} ranks the entities and ${padding}. ` +
        "Every mention of the gold entity has been removed from the implicit text, so this only scores when words of its name " +
        "survive in other guises, such as a city named inside the name of its university.",
      track: "closed",
    },
    "bm25-descriptions": {
      label: "BM25 over names and descriptions (C2-style)",
      description:
        "Lexical counterpart of the paper's C2 (description representation). Each KB entity is a document made of its name, " +
        "aliases, short Wikidata description and first Wikipedia sentence; the implicit text is the query. " +
        `${bm25} ranks the entities and ${padding}. No training and no embeddings: a floor any retriever should clear.`,
      track: "closed",
    },
    "bm25-open": {
      label: "Top BM25 entity name (open-world)",
      description:
        "Open-world use of the BM25 baseline over names and descriptions: the prediction is the canonical name of the " +
        "top-ranked entity, or empty when no entity shares a word with the implicit text. Shows what a KB lookup without " +
        "any language model reaches on the open-world tiers.",
      track: "open",
    },
    "prior-train-frequency": {
      label: "Train-frequency prior (floor)",
      description:
        "The same ranking for every sample: KB entities ordered by how often they are the gold entity in the train split, " +
        `then the rest in KB order, top ${rankingLength}. It ignores the text. The splits are entity-disjoint, so on dev and ` +
        "test it scores close to zero: it is the floor that shows what ignoring the narrative is worth.",
      track: "closed",
    },
  };
}

function assertRankingLength(rankingLength: number): void {
  if (!Number.isInteger(rankingLength) || rankingLength < 1 || rankingLength > MAX_RANKING_LENGTH) {
    throw new RangeError(`rankingLength must be an integer from 1 to ${MAX_RANKING_LENGTH}, got ${rankingLength}`);
  }
}

/** The KB with repeated QIDs dropped (first one wins), so every ranking stays distinct. */
function distinctEntities(entities: readonly BaselineEntity[]): BaselineEntity[] {
  const seen = new Set<string>();
  const distinct: BaselineEntity[] = [];
  for (const entity of entities) {
    if (seen.has(entity.qid)) {
      continue;
    }
    seen.add(entity.qid);
    distinct.push(entity);
  }
  return distinct;
}

/** Every KB QID, most frequent train gold first, ties and unseen entities in KB order. */
export function orderByTrainFrequency(
  entities: readonly BaselineEntity[],
  trainSamples: readonly BaselineTrainSample[],
): string[] {
  const counts = new Map<string, number>();
  for (const sample of trainSamples) {
    counts.set(sample.qid, (counts.get(sample.qid) ?? 0) + 1);
  }
  // Array.prototype.sort is stable (ES2019), so equal counts keep KB order.
  return entities
    .map((entity) => entity.qid)
    .sort((a, b) => (counts.get(b) ?? 0) - (counts.get(a) ?? 0));
}

function namesText(entity: BaselineEntity): string {
  return [entity.name, ...entity.aliases].join("\n");
}

function descriptionsText(entity: BaselineEntity): string {
  return [entity.name, ...entity.aliases, entity.description, entity.description_wiki].join("\n");
}

/** The BM25 hits, then the prior order, skipping repeats, up to `rankingLength` QIDs. */
function padRanking(hits: readonly string[], priorOrder: readonly string[], rankingLength: number): string[] {
  const ranking = hits.slice(0, rankingLength);
  const used = new Set(ranking);
  for (const qid of priorOrder) {
    if (ranking.length >= rankingLength) {
      break;
    }
    if (!used.has(qid)) {
      used.add(qid);
      ranking.push(qid);
    }
  }
  return ranking;
}

/** At most MAX_PREDICTION_LENGTH code points (protocol section 4), never splitting a surrogate pair. */
function clipPrediction(text: string): string {
  if (text.length <= MAX_PREDICTION_LENGTH) {
    return text;
  }
  return Array.from(text).slice(0, MAX_PREDICTION_LENGTH).join("");
}

function rankingLine(id: string, ranking: readonly string[]): string {
  return JSON.stringify({ id, ranking });
}

function predictionLine(id: string, prediction: string): string {
  return JSON.stringify({ id, prediction });
}


function qidsOf(index: Bm25Index, terms: readonly string[], rankingLength: number): string[] {
  return searchTerms(index, terms, rankingLength).map((hit) => hit.id);
}

/**
 * The four baseline prediction files for one split, in BASELINE_KEYS order.
 * Rankings hold 1 to `rankingLength` distinct KB QIDs (fewer only when the KB
 * is smaller); throws a RangeError for an empty KB or a ranking length
 * outside 1-100, which no valid prediction file could satisfy.
 */
export function computeBaselinePredictions(options: ComputeBaselinePredictionsOptions): BaselineRun[] {
  const rankingLength = options.rankingLength ?? MAX_RANKING_LENGTH;
  assertRankingLength(rankingLength);
  const entities = distinctEntities(options.entities);
  if (entities.length === 0) {
    throw new RangeError("cannot compute baselines for an empty KB: a ranking needs at least one QID");
  }

  const nameByQid = new Map(entities.map((entity) => [entity.qid, entity.name]));
  const priorOrder = orderByTrainFrequency(entities, options.trainSamples);
  const priorRanking = priorOrder.slice(0, rankingLength);
  const namesIndex = createBm25Index(entities.map((entity) => ({ id: entity.qid, text: namesText(entity) })));
  const descriptionsIndex = createBm25Index(entities.map((entity) => ({ id: entity.qid, text: descriptionsText(entity) })));

  const namesLines: string[] = [];
  const descriptionsLines: string[] = [];
  const openLines: string[] = [];
  const priorLines: string[] = [];
  for (const sample of options.samples) {
    const queryTerms = tokenize(sample.implicit_text);
    const nameHits = qidsOf(namesIndex, queryTerms, rankingLength);
    const descriptionHits = qidsOf(descriptionsIndex, queryTerms, rankingLength);
    const topQid = descriptionHits[0];
    const topName = topQid === undefined ? "" : (nameByQid.get(topQid) ?? "");

    namesLines.push(rankingLine(sample.id, padRanking(nameHits, priorOrder, rankingLength)));
    descriptionsLines.push(rankingLine(sample.id, padRanking(descriptionHits, priorOrder, rankingLength)));
    openLines.push(predictionLine(sample.id, clipPrediction(topName)));
    priorLines.push(rankingLine(sample.id, priorRanking));
  }

  const info = describeBaselines(rankingLength);
  return [
    { key: "bm25-names", ...info["bm25-names"], lines: namesLines },
    { key: "bm25-descriptions", ...info["bm25-descriptions"], lines: descriptionsLines },
    { key: "bm25-open", ...info["bm25-open"], lines: openLines },
    { key: "prior-train-frequency", ...info["prior-train-frequency"], lines: priorLines },
  ];
}
