import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import type { GoldRecord, KbIndex } from "./gold";
import { norm } from "./normalize";
import { isAliasHitAt1Code, rankOfCode, tierOfCode, type SampleOutcomes } from "./outcome-codes";
import type { TrackPredictions } from "./track-predictions";
import type { Track } from "./tracks";

/**
 * Error taxonomy of one prediction per sample (docs/scoring.md, "Error
 * classes"), after the categories of the IRC-Bench paper's Table 8. Pure and
 * deterministic: the tier or rank the scorer stored (sections 6 and 7), the
 * prediction, and the KB decide a sample's class; no model is involved.
 *
 * Open-world, first that applies:
 *   correct    tier <= 2 (exact name or alias: the primary metric, section 6)
 *   partial    tier 3 or 4 (containment or Jaccard only)
 *   empty      norm(prediction) is empty
 *   wrong type norm(prediction) is norm() of the name or an alias of KB entities of other types only
 *   same type  ... of a KB entity of the gold's type (when a name is borne by
 *              entities of several types, one of the gold's type makes it "same type")
 *   not in KB  it names no KB entity
 *
 * Closed-world, first that applies:
 *   correct          gold rank 1 (hit@1)
 *   alias twin       alias_hit@1 without hit@1 (the top entity bears the gold's name or an alias)
 *   in top 10        gold rank 2..10
 *   wrong type at 1  the top entity's type differs from the gold's
 *   same type at 1   the top entity has the gold's type
 */

export const OPEN_ERROR_CLASSES = ["correct", "partial", "empty", "wrong_type", "same_type", "not_in_kb"] as const;
export const CLOSED_ERROR_CLASSES = ["correct", "alias_twin", "in_top_10", "wrong_type_at_1", "same_type_at_1"] as const;
type OpenErrorClass = (typeof OPEN_ERROR_CLASSES)[number];
type ClosedErrorClass = (typeof CLOSED_ERROR_CLASSES)[number];
export type ErrorClass = OpenErrorClass | ClosedErrorClass;

export const ERROR_CLASS_LABELS: Record<ErrorClass, string> = {
  correct: "correct",
  partial: "partial",
  empty: "empty",
  same_type: "same type",
  wrong_type: "wrong type",
  not_in_kb: "not in KB",
  alias_twin: "alias twin",
  in_top_10: "in top 10",
  wrong_type_at_1: "wrong type at 1",
  same_type_at_1: "same type at 1",
};

export function errorClassesOf(track: Track): readonly ErrorClass[] {
  return track === "open" ? OPEN_ERROR_CLASSES : CLOSED_ERROR_CLASSES;
}

/** The class stored as a byte: its index in the track's class list. */
export function errorClassOfCode(track: Track, code: number): ErrorClass {
  const found = errorClassesOf(track)[code];
  if (found === undefined) throw new RangeError(`no ${track}-world error class has code ${code}`);
  return found;
}

/** KB types per normalised name or alias; built once per release. */
export type KbNameIndex = ReadonlyMap<string, readonly EntityType[]>;

/**
 * Every non-empty norm() of a KB entity's name and aliases, with the types of
 * the entities that bear it, in the order of the seven types (section 1).
 */
export function buildKbNameIndex(kb: KbIndex): KbNameIndex {
  const typesByName = new Map<string, Set<EntityType>>();
  for (const entity of kb.values()) {
    for (const text of [entity.name, ...entity.aliases]) {
      const normalized = norm(text);
      if (normalized.length === 0) continue;
      let types = typesByName.get(normalized);
      if (types === undefined) {
        types = new Set();
        typesByName.set(normalized, types);
      }
      types.add(entity.type);
    }
  }
  const index = new Map<string, readonly EntityType[]>();
  for (const [name, types] of typesByName) {
    index.set(
      name,
      ENTITY_TYPES.filter((type) => types.has(type)),
    );
  }
  return index;
}

/** One sample's class and the type its answer names (null: it names no KB entity). */
type SampleClassification = { errorClass: ErrorClass; answerType: EntityType | null };

/**
 * The type an open-world answer names: the gold's when one of the entities
 * bearing that name has it (the reading that credits the system), else the
 * first of the others in the order of section 1.
 */
function namedType(types: readonly EntityType[] | undefined, goldType: EntityType): EntityType | null {
  if (types === undefined || types.length === 0) return null;
  return types.includes(goldType) ? goldType : (types[0] ?? null);
}

export function classifyOpenSample(prediction: string, tierCode: number, goldType: EntityType, names: KbNameIndex): SampleClassification {
  const tier = tierOfCode(tierCode);
  const normalized = norm(prediction);
  const answerType = namedType(names.get(normalized), goldType);
  if (tier !== null && tier <= 2) return { errorClass: "correct", answerType: goldType };
  if (tier !== null) return { errorClass: "partial", answerType };
  if (normalized.length === 0) return { errorClass: "empty", answerType: null };
  if (answerType === null) return { errorClass: "not_in_kb", answerType: null };
  return { errorClass: answerType === goldType ? "same_type" : "wrong_type", answerType };
}

export function classifyClosedSample(outcomeCode: number, topType: EntityType, goldType: EntityType): SampleClassification {
  const rank = rankOfCode(outcomeCode);
  if (rank === 1) return { errorClass: "correct", answerType: topType };
  if (isAliasHitAt1Code(outcomeCode)) return { errorClass: "alias_twin", answerType: topType };
  if (rank >= 2 && rank <= 10) return { errorClass: "in_top_10", answerType: topType };
  return { errorClass: topType === goldType ? "same_type_at_1" : "wrong_type_at_1", answerType: topType };
}

/** Byte per sample, in gold order: the class code and the answer's type (0 none, 1..7 the types of section 1). */
type SampleClasses = { track: Track; classes: Uint8Array; answerTypes: Uint8Array };

export function answerTypeOfCode(code: number): EntityType | null {
  return code === 0 ? null : (ENTITY_TYPES[code - 1] ?? null);
}

function answerTypeCode(type: EntityType | null): number {
  return type === null ? 0 : ENTITY_TYPES.indexOf(type) + 1;
}

/** Classifies every sample of a scored file (predictions as validated, outcomes as scored). */
export function classifySamples(
  options: TrackPredictions & { gold: readonly GoldRecord[]; kb: KbIndex; outcomes: SampleOutcomes; names: KbNameIndex },
): SampleClasses {
  const { gold, outcomes } = options;
  if (outcomes.codes.length !== gold.length) throw new Error(`outcomes cover ${outcomes.codes.length} samples, the gold ${gold.length}`);
  const classes = new Uint8Array(gold.length);
  const answerTypes = new Uint8Array(gold.length);
  const codes = errorClassesOf(options.track);
  gold.forEach((sample, i) => {
    const outcome = outcomes.codes[i] ?? 0;
    let result: SampleClassification;
    if (options.track === "open") {
      result = classifyOpenSample(options.predictions.get(sample.id) ?? "", outcome, sample.type, options.names);
    } else {
      const top = options.predictions.get(sample.id)?.[0];
      const topEntity = top === undefined ? undefined : options.kb.get(top);
      // Validation guarantees a non-empty ranking of KB QIDs; this is a caller bug.
      if (topEntity === undefined) throw new Error(`sample "${sample.id}": its top entity is not in the KB`);
      result = classifyClosedSample(outcome, topEntity.type, sample.type);
    }
    classes[i] = codes.indexOf(result.errorClass);
    answerTypes[i] = answerTypeCode(result.answerType);
  });
  return { track: options.track, classes, answerTypes };
}

type ClassCounts = Record<string, number>;

/** The column of answers that name no KB entity in the confusion matrix. */
const NO_KB_ENTITY = "none";
type AnswerTypeColumn = EntityType | typeof NO_KB_ENTITY;
export const ANSWER_TYPE_COLUMNS: readonly AnswerTypeColumn[] = [...ENTITY_TYPES, NO_KB_ENTITY];

/** Aggregates of a classified file: stored per submission (the test split's stay on the server, section 12). */
export type ErrorClassSummary = {
  track: Track;
  n: number;
  /** Samples per class, every class of the track present. */
  counts: ClassCounts;
  /** Per gold type: n and samples per class. */
  byType: Record<EntityType, { n: number; counts: ClassCounts }>;
  /** Gold type x type the answer names: samples per cell (rows the seven types, columns the seven and "none"). */
  confusion: Record<EntityType, Record<AnswerTypeColumn, number>>;
};

function zeroCounts(track: Track): ClassCounts {
  return Object.fromEntries(errorClassesOf(track).map((name) => [name, 0]));
}

export function summarizeClasses(classified: SampleClasses, goldTypes: readonly EntityType[]): ErrorClassSummary {
  const { track, classes, answerTypes } = classified;
  if (classes.length !== goldTypes.length) throw new Error(`classes cover ${classes.length} samples, the gold ${goldTypes.length}`);
  const counts = zeroCounts(track);
  const byType = Object.fromEntries(ENTITY_TYPES.map((type) => [type, { n: 0, counts: zeroCounts(track) }])) as ErrorClassSummary["byType"];
  const confusion = Object.fromEntries(
    ENTITY_TYPES.map((type) => [type, Object.fromEntries(ANSWER_TYPE_COLUMNS.map((column) => [column, 0]))]),
  ) as ErrorClassSummary["confusion"];
  goldTypes.forEach((goldType, i) => {
    const name = errorClassOfCode(track, classes[i] ?? 0);
    counts[name] = (counts[name] ?? 0) + 1;
    const group = byType[goldType];
    group.n += 1;
    group.counts[name] = (group.counts[name] ?? 0) + 1;
    const column: AnswerTypeColumn = answerTypeOfCode(answerTypes[i] ?? 0) ?? NO_KB_ENTITY;
    confusion[goldType][column] += 1;
  });
  return { track, n: goldTypes.length, counts, byType, confusion };
}

/** Samples per class among `positions` (gold order) only: a test slice's counts (protocol section 12). */
export function countClassesAt(classified: SampleClasses, positions: ArrayLike<number>): { n: number; counts: ClassCounts } {
  const counts = zeroCounts(classified.track);
  for (let k = 0; k < positions.length; k += 1) {
    const name = errorClassOfCode(classified.track, classified.classes[positions[k] ?? 0] ?? 0);
    counts[name] = (counts[name] ?? 0) + 1;
  }
  return { n: positions.length, counts };
}
