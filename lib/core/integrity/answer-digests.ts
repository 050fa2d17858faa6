import { hash } from "node:crypto";
import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-constants";
import type { KbIndex } from "@/lib/core/scoring/gold";
import { norm } from "@/lib/core/scoring/normalize";
import type { TrackPredictions } from "@/lib/core/scoring/track-predictions";

/**
 * Protocol §12: a publication request is refused when its file answers almost
 * every test sample as a baseline or another entry or request of the release
 * name does, since the difference of two public scores would read the few
 * answers that changed. Files are compared in the unified view (§7), by an
 * answer key that reads nothing of the test gold: an answer is the set of KB
 * entities it would count as alias-correct for, whatever the gold is, less
 * the train and dev golds (splits are entity-level, so none of those can be
 * a test gold). So an open answer and a closed top-1 naming the same entity
 * are the same answer, a ranking's places below the top do not matter, and
 * every answer that cannot be right on the test split (one naming only train
 * or dev entities, or nothing of the KB) is one and the same answer: swapping
 * one for another is no difference.
 *
 * Per sample, in test.jsonl order, one 8-byte record: the first 8 bytes of
 * SHA-256 of the key's QIDs (sorted, comma-joined; QIDs, not KB positions,
 * so files of two versions of a release compare). Pure: no database, no files.
 */
const DIGEST_BYTES = 8;
/**
 * How answer digests are made. 1 to 4: earlier keys of an upload-time check
 * (what could score, per sample or per metric). 5: the unified answer set
 * with a type mask. 6: the unified answer set less the train and dev golds,
 * no type. Digests of another version are never compared with these; they
 * are recomputed from the stored file.
 */
export const ANSWER_KEY_VERSION = 6;

/** The KB as the unified view reads answers: built once per release. */
export type AnswerIndex = {
  /** norm(name) or norm(alias), non-empty -> the QIDs of the entities it names (§6 tier 2, §7 alias_hit@1). */
  byNameOrAlias: ReadonlyMap<string, readonly string[]>;
  /** norm(name) of every entity. */
  normalizedNameOf: ReadonlyMap<string, string>;
  /** The type bit of every entity (the probe flags' answer types). */
  typeBitOf: ReadonlyMap<string, number>;
  /** The release's train and dev gold entities: none can be right on the test split, so the answer key leaves them out. */
  cannotBeRight: ReadonlySet<string>;
};

function typeBit(type: EntityType): number {
  return 1 << ENTITY_TYPES.indexOf(type);
}

/** `trainDevQids`: the QIDs of the release's train and dev golds (public: train.jsonl and dev.jsonl name them). */
export function buildAnswerIndex(kb: KbIndex, trainDevQids: Iterable<string>): AnswerIndex {
  const byNameOrAlias = new Map<string, string[]>();
  const normalizedNameOf = new Map<string, string>();
  const typeBitOf = new Map<string, number>();
  for (const [qid, entity] of kb) {
    const name = norm(entity.name);
    normalizedNameOf.set(qid, name);
    typeBitOf.set(qid, typeBit(entity.type));
    for (const text of new Set([name, ...entity.aliases.map(norm)])) {
      if (text.length === 0) continue;
      const list = byNameOrAlias.get(text);
      if (list === undefined) byNameOrAlias.set(text, [qid]);
      else list.push(qid);
    }
  }
  return { byNameOrAlias, normalizedNameOf, typeBitOf, cannotBeRight: new Set(trainDevQids) };
}

/**
 * The KB entities an answer would count as alias-correct for, sorted. Open
 * track (§6 tier 2): the entities whose norm(name) or norm(alias) is
 * norm(prediction). Closed track (§7 alias_hit@1): the top entity t, and the
 * entities of whose name or alias norm(t.name) is one.
 */
export function answerEntities(prediction: string | readonly string[] | undefined, index: AnswerIndex): string[] {
  if (prediction === undefined) return [];
  if (typeof prediction === "string") {
    const normalized = norm(prediction);
    // §6: an empty prediction meets no tier.
    return normalized.length === 0 ? [] : [...(index.byNameOrAlias.get(normalized) ?? [])].sort();
  }
  const top = prediction[0];
  if (top === undefined) return [];
  const named = new Set(index.byNameOrAlias.get(index.normalizedNameOf.get(top) ?? "") ?? []);
  named.add(top);
  return [...named].sort();
}

/**
 * §12's answer key: the entities against which the scorer could read the
 * answer as right on the test split (answerEntities less the train and dev
 * golds), sorted. Empty for every answer that cannot be right there.
 */
export function answerKey(prediction: string | readonly string[] | undefined, index: AnswerIndex): string[] {
  return answerEntities(prediction, index).filter((qid) => !index.cannotBeRight.has(qid));
}

function recordOf(key: readonly string[]): Buffer {
  return hash("sha256", key.join(","), "buffer").subarray(0, DIGEST_BYTES);
}

/** The record of every answer that cannot be right: also what a sample missing from another version's file compares as. */
const CANNOT_BE_RIGHT_RECORD = recordOf([]);

/** One record per sample of `sampleIds` (test.jsonl order), concatenated. */
export function computeAnswerDigests(sampleIds: readonly string[], predictions: TrackPredictions, index: AnswerIndex): Uint8Array<ArrayBuffer> {
  const digests = new Uint8Array(sampleIds.length * DIGEST_BYTES);
  // A file often repeats an answer (the same nonsense, the same top entity): each is keyed once.
  const recordOfAnswer = new Map<string, Buffer>();
  sampleIds.forEach((sampleId, sample) => {
    const prediction = predictions.predictions.get(sampleId);
    const memo = prediction === undefined ? "" : typeof prediction === "string" ? `o${prediction}` : `c${prediction[0] ?? ""}`;
    let record = recordOfAnswer.get(memo);
    if (record === undefined) {
      record = recordOf(answerKey(prediction, index));
      recordOfAnswer.set(memo, record);
    }
    digests.set(record, sample * DIGEST_BYTES);
  });
  return digests;
}

export type DigestDifferences = {
  /** Samples whose answers differ. */
  differing: number;
  /** The same, per collection of the sample (public: test.jsonl names it). */
  byCollection: ReadonlyMap<string, number>;
};

type DigestComparison = {
  /** The file compared, in the test.jsonl order of its release. */
  digests: Uint8Array;
  /** The other file, in the test.jsonl order of its release. */
  other: Uint8Array;
  /** For each sample position of `digests`, its position in `other` (-1: not in that release); null when both are of one release. */
  otherPositionOf: Int32Array | null;
  /** The collection of each sample position of `digests`. */
  collections: readonly string[];
  /** Stop counting once more than this many samples differ (a scan that needs to know only "few or many"). */
  stopAbove?: number;
};

function isSameAnswer(first: Uint8Array, firstAt: number, second: Uint8Array, secondAt: number): boolean {
  for (let offset = 0; offset < DIGEST_BYTES; offset += 1) {
    if (first[firstAt + offset] !== second[secondAt + offset]) return false;
  }
  return true;
}

/** How two files' answers differ, sample by sample, over the whole test split. */
export function countDifferences(comparison: DigestComparison): DigestDifferences {
  const { digests, other, otherPositionOf, collections } = comparison;
  const sampleCount = Math.floor(digests.length / DIGEST_BYTES);
  const otherCount = Math.floor(other.length / DIGEST_BYTES);
  const byCollection = new Map<string, number>();
  let differing = 0;
  for (let position = 0; position < sampleCount; position += 1) {
    const mapped = otherPositionOf === null ? position : (otherPositionOf[position] ?? -1);
    const hasOther = mapped >= 0 && mapped < otherCount;
    const second = hasOther ? other : CANNOT_BE_RIGHT_RECORD;
    const secondAt = hasOther ? mapped * DIGEST_BYTES : 0;
    if (isSameAnswer(digests, position * DIGEST_BYTES, second, secondAt)) continue;
    differing += 1;
    const collection = collections[position] ?? "";
    byCollection.set(collection, (byCollection.get(collection) ?? 0) + 1);
    if (comparison.stopAbove !== undefined && differing > comparison.stopAbove) break;
  }
  return { differing, byCollection };
}

const MIN_DIFFERING_SAMPLES = 25;

/** The two §12 thresholds of a release: at least `overall` differing samples of the whole test split, and at least `perCollection` in any collection where the files differ at all. */
export type PublicationThresholds = { overall: number; perCollection: number };

/** ceil(x / (1 - f)), robust to the binary rounding of `f` (100 / (1 - 0.2) is 125.00000000000001). */
function scaledUp(x: number, feedbackFraction: number): number {
  return Math.ceil(x / (1 - feedbackFraction) - 1e-9);
}

/**
 * Protocol §12: `ceil(max(25, 1% of the test split) / (1 - f))` samples of the
 * whole test split, and `ceil(min_group_n / (1 - f))` within a collection, `f`
 * the feedback fraction. Divided by (1 - f): the guard cannot know which
 * samples are in the ranking slice (it reads nothing of the gold), so it asks
 * for as many of the whole split as leave the ranking slice's share enough.
 */
export function publicationThresholds(release: { testSamples: number; feedbackFraction: number; minGroupN: number }): PublicationThresholds {
  return {
    overall: scaledUp(Math.max(MIN_DIFFERING_SAMPLES, release.testSamples / 100), release.feedbackFraction),
    perCollection: scaledUp(release.minGroupN, release.feedbackFraction),
  };
}

/** Which §12 rule two files break (for the maintainers' audit log only: the refusal a participant reads never says). */
export type TooClose = { rule: "overall" } | { rule: "collection"; collection: string };

/**
 * The §12 verdict: null when the two files are far enough apart, else the
 * first rule broken: fewer than `overall` differing samples, or a collection
 * where they differ in some samples but fewer than `perCollection` (a
 * collection that does not differ at all reads nothing). `perCollection`
 * null: the overall rule only (a release below 1,000 test samples, whose
 * gold §12 calls illustrative, not protected).
 */
export function tooCloseOf(differences: DigestDifferences, thresholds: { overall: number; perCollection: number | null }): TooClose | null {
  if (differences.differing < thresholds.overall) return { rule: "overall" };
  const { perCollection } = thresholds;
  if (perCollection === null) return null;
  for (const [collection, count] of [...differences.byCollection].sort(([first], [second]) => first.localeCompare(second))) {
    if (count > 0 && count < perCollection) return { rule: "collection", collection };
  }
  return null;
}
