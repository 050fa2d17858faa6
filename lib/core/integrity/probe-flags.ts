import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-constants";
import { norm, tokensOfNormalized } from "@/lib/core/scoring/normalize";
import type { TrackPredictions } from "@/lib/core/scoring/track-predictions";
import { answerEntities, type AnswerIndex } from "@/lib/core/integrity/answer-digests";
import { PROBE_FLAGS_VERSION, probeFlagsSchema, type ProbeFlag, type ProbeFlagId, type ProbeFlags } from "./probe-flags-schema";

/**
 * Probe flags of a test file (protocol section 12): signs that a file was
 * built to read the gold rather than to answer. Computed from the parsed
 * predictions, the KB, the QIDs of the train and dev splits and the samples'
 * collections (public: test.jsonl names them) only, never from the test
 * gold, so they say nothing about which answers are right. The
 * thresholds and why they are where they are: docs/integrity.md.
 */

/** A flag is raised when its share is strictly above its threshold. */
export const PROBE_FLAG_THRESHOLDS: Readonly<Record<ProbeFlagId, number>> = {
  single_entry_rankings: 0.5,
  top1_from_known_splits: 0.9,
  most_common_prediction: 0.2,
  many_names: 0.2,
  short_predictions: 0.2,
  // Any such group is a sign: its numbers are known before scoring, whatever the gold.
  uninformative_groups: 0,
};

export const PROBE_FLAG_LABELS: Readonly<Record<ProbeFlagId, string>> = {
  single_entry_rankings: "rankings of length one",
  top1_from_known_splits: "top-ranked entity from the train or dev split (never test gold)",
  most_common_prediction: "samples answered by the most common prediction",
  many_names: "predictions of more than 12 tokens (many names)",
  short_predictions: "empty or one-character predictions",
  uninformative_groups: "samples in a collection or answer type whose answers all name train or dev entities or nothing of the KB",
};

/** More distinct tokens (protocol section 5) than this and a prediction lists names rather than naming one. */
const MANY_NAMES_TOKENS = 12;

type ComputeProbeFlagsOptions = TrackPredictions & {
  /** QIDs of the release's train and dev entities; splits are entity-level, so none is test gold. */
  knownSplitQids: ReadonlySet<string>;
  /** The KB as the unified view reads answers (lib/core/integrity/answer-digests.ts). */
  answerIndex: AnswerIndex;
  /** Each sample's collection, by sample id. */
  collectionOf: ReadonlyMap<string, string>;
  /** The release's min_group_n: a smaller group shows no numbers, so nothing is read through it and it is not flagged. */
  minGroupN: number;
};

export function computeProbeFlags(options: ComputeProbeFlagsOptions): ProbeFlags {
  const n = options.predictions.size;
  const flags = options.track === "closed" ? closedFlags(options.predictions, options.knownSplitQids) : openFlags(options.predictions);
  return probeFlagsSchema.parse({
    version: PROBE_FLAGS_VERSION,
    track: options.track,
    n,
    flags: [...flags, uninformativeGroups(options)].map((flag) => toFlag(flag, n)),
  });
}

function toFlag({ id, count, groups }: FlagCount, n: number): ProbeFlag {
  const value = n === 0 ? 0 : count / n;
  const threshold = PROBE_FLAG_THRESHOLDS[id];
  return { id, label: PROBE_FLAG_LABELS[id], value, threshold, raised: value > threshold, count, ...(groups ? { groups } : {}) };
}

type FlagGroup = { kind: "collection" | "type"; name: string; n: number };
type FlagCount = { id: ProbeFlagId; count: number; groups?: FlagGroup[] };
type GroupTally = { n: number; informative: number };

function tally(groups: Map<string, GroupTally>, name: string, isInformative: boolean): void {
  const group = groups.get(name) ?? { n: 0, informative: 0 };
  group.n += 1;
  if (isInformative) group.informative += 1;
  groups.set(name, group);
}

/**
 * A collection whose every answer names only train or dev entities, or
 * nothing of the KB, is known to score zero there whatever the gold: a file
 * built that way around a few probe answers elsewhere reads them through the
 * per-collection numbers. The same per answer type, where an answer's type is
 * well defined: the answers naming entities of exactly one type (the type of
 * an answer naming nothing, or entities of several types, is not). An answer
 * is read as in the unified view (the entities it would count as
 * alias-correct for), so the flag means the same on both tracks. Groups of
 * fewer than min_group_n answers are left out: no public report shows a
 * number for so few samples, and an honest file often has a rare answer type
 * made only of train or dev entities.
 */
function uninformativeGroups(options: ComputeProbeFlagsOptions): FlagCount {
  const collections = new Map<string, GroupTally>();
  const types = new Map<string, GroupTally>();
  const answerTypes = new Map<string, EntityType | null>();
  for (const [sampleId, prediction] of options.predictions) {
    const named = answerEntities(prediction, options.answerIndex);
    const isInformative = named.some((qid) => !options.knownSplitQids.has(qid));
    tally(collections, options.collectionOf.get(sampleId) ?? "", isInformative);
    const answerType = singleTypeOf(named, options.answerIndex);
    answerTypes.set(sampleId, answerType);
    if (answerType !== null) tally(types, answerType, isInformative);
  }
  const isFlagged = (group: GroupTally | undefined) => group !== undefined && group.informative === 0 && group.n >= options.minGroupN;
  const groups: FlagGroup[] = [];
  for (const [kind, tallies] of [["collection", collections], ["type", types]] as const) {
    for (const [name, group] of tallies) if (isFlagged(group) && name !== "") groups.push({ kind, name, n: group.n });
  }
  // The share: samples in a flagged collection or of a flagged answer type, each counted once.
  let count = 0;
  for (const sampleId of options.predictions.keys()) {
    const answerType = answerTypes.get(sampleId) ?? null;
    if (isFlagged(collections.get(options.collectionOf.get(sampleId) ?? "")) || (answerType !== null && isFlagged(types.get(answerType)))) count += 1;
  }
  return { id: "uninformative_groups", count, groups };
}

function singleTypeOf(named: readonly string[], index: AnswerIndex): EntityType | null {
  let mask = 0;
  for (const qid of named) mask |= index.typeBitOf.get(qid) ?? 0;
  const bit = ENTITY_TYPES.findIndex((_, at) => mask === 1 << at);
  return bit === -1 ? null : (ENTITY_TYPES[bit] ?? null);
}

function closedFlags(rankings: ReadonlyMap<string, readonly string[]>, knownSplitQids: ReadonlySet<string>): FlagCount[] {
  let single = 0;
  let known = 0;
  for (const ranking of rankings.values()) {
    if (ranking.length === 1) single += 1;
    const top = ranking[0];
    if (top !== undefined && knownSplitQids.has(top)) known += 1;
  }
  return [
    { id: "single_entry_rankings", count: single },
    { id: "top1_from_known_splits", count: known },
  ];
}

function openFlags(predictions: ReadonlyMap<string, string>): FlagCount[] {
  const counts = new Map<string, number>();
  let manyNames = 0;
  let short = 0;
  for (const prediction of predictions.values()) {
    const normalized = norm(prediction);
    // The empty string is a prediction like any other: one empty answer for most samples is the same sign.
    counts.set(normalized, (counts.get(normalized) ?? 0) + 1);
    if (tokensOfNormalized(normalized).size > MANY_NAMES_TOKENS) manyNames += 1;
    if ([...normalized].length <= 1) short += 1;
  }
  let mostCommon = 0;
  for (const count of counts.values()) mostCommon = Math.max(mostCommon, count);
  return [
    { id: "most_common_prediction", count: mostCommon },
    { id: "many_names", count: manyNames },
    { id: "short_predictions", count: short },
  ];
}
