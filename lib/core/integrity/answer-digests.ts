import { hash } from "node:crypto";
import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-constants";
import type { KbIndex } from "@/lib/core/scoring/gold";
import type { TestSlices } from "@/lib/core/slices/slice-membership";
import { norm } from "@/lib/core/scoring/normalize";
import type { TrackPredictions } from "@/lib/core/scoring/track-predictions";

/**
 * Protocol §12: a publication request is refused when its file answers almost
 * every sample of the ranking slice as a baseline or another entry of the
 * account does, since the difference of two public scores would read the few
 * answers that changed. Files are compared in the unified view (§7): an
 * answer is the set of KB entities it would count as alias-correct for,
 * whatever the gold is, so an open answer and a closed top-1 naming the same
 * entity are the same answer, two strings naming nothing of the KB are the
 * same (no) answer, and a ranking's places below the top do not matter.
 *
 * Per sample, in gold order, one 8-byte record: the first 7 bytes of
 * SHA-256 of the entity set's QIDs (sorted, comma-joined; QIDs, not KB
 * positions, so files of two versions of a release compare), then one byte
 * with a bit per entity type (ENTITY_TYPES order) of the entities in the set:
 * the "type" of an answer, read from the KB, never from the test gold. Pure:
 * no database, no files.
 */
const DIGEST_BYTES = 8;
/** The bytes of a record that say which entities an answer names; the last byte is the type mask. */
const HASH_BYTES = 7;
const MIN_DIFFERING_SAMPLES = 25;
/**
 * How answer digests are made. 1 to 4: earlier keys of an upload-time check
 * (what could score, per sample or per metric). 5: the unified answer set
 * above. Digests of another version are never compared with these; they are
 * recomputed from the stored file.
 */
export const ANSWER_KEY_VERSION = 5;

/** The KB as the unified view reads answers: built once per release. */
export type AnswerIndex = {
  /** norm(name) or norm(alias), non-empty -> the QIDs of the entities it names (§6 tier 2, §7 alias_hit@1). */
  byNameOrAlias: ReadonlyMap<string, readonly string[]>;
  /** norm(name) of every entity. */
  normalizedNameOf: ReadonlyMap<string, string>;
  /** The type bit of every entity. */
  typeBitOf: ReadonlyMap<string, number>;
};

function typeBit(type: EntityType): number {
  return 1 << ENTITY_TYPES.indexOf(type);
}

export function buildAnswerIndex(kb: KbIndex): AnswerIndex {
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
  return { byNameOrAlias, normalizedNameOf, typeBitOf };
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

function recordOf(entities: readonly string[], index: AnswerIndex): Buffer {
  const record = Buffer.alloc(DIGEST_BYTES);
  hash("sha256", entities.join(","), "buffer").copy(record, 0, 0, HASH_BYTES);
  let mask = 0;
  for (const qid of entities) mask |= index.typeBitOf.get(qid) ?? 0;
  record[HASH_BYTES] = mask;
  return record;
}

/** The record of an answer naming nothing of the KB: what a sample missing from another version's file compares as. */
const EMPTY_RECORD = (() => {
  const record = Buffer.alloc(DIGEST_BYTES);
  hash("sha256", "", "buffer").copy(record, 0, 0, HASH_BYTES);
  return record;
})();

/** One record per sample of `sampleIds` (gold order), concatenated. */
export function computeAnswerDigests(sampleIds: readonly string[], predictions: TrackPredictions, index: AnswerIndex): Uint8Array<ArrayBuffer> {
  const digests = new Uint8Array(sampleIds.length * DIGEST_BYTES);
  // A file often repeats an answer (the same nonsense, the same top entity): each is keyed once.
  const recordOfAnswer = new Map<string, Buffer>();
  sampleIds.forEach((sampleId, sample) => {
    const prediction = predictions.predictions.get(sampleId);
    const memo = prediction === undefined ? "" : typeof prediction === "string" ? `o${prediction}` : `c${prediction[0] ?? ""}`;
    let record = recordOfAnswer.get(memo);
    if (record === undefined) {
      record = recordOf(answerEntities(prediction, index), index);
      recordOfAnswer.set(memo, record);
    }
    digests.set(record, sample * DIGEST_BYTES);
  });
  return digests;
}

export type DigestDifferences = {
  /** Samples counted whose answers differ. */
  differing: number;
  /** The same, per collection of the sample. */
  byCollection: ReadonlyMap<string, number>;
  /** The same, per entity type named by either answer (a sample counts once for each such type). */
  byType: ReadonlyMap<EntityType, number>;
};

type DigestComparison = {
  /** The file compared, in the gold order of its release. */
  digests: Uint8Array;
  /** The other file, in the gold order of its release. */
  other: Uint8Array;
  /** For each sample position of `digests`, its position in `other` (-1: not in that release); null when both are of one release. */
  otherPositionOf: Int32Array | null;
  /** The positions counted (the ranking slice); null: every sample. */
  positions: ArrayLike<number> | null;
  /** The collection of each sample position of `digests` (public: test.jsonl names it). */
  collections: readonly string[];
  /** Stop counting once more than this many samples differ (a scan that needs to know only "few or many"). */
  stopAbove?: number;
};

function isSameAnswer(first: Uint8Array, firstAt: number, second: Uint8Array, secondAt: number): boolean {
  for (let offset = 0; offset < HASH_BYTES; offset += 1) {
    if (first[firstAt + offset] !== second[secondAt + offset]) return false;
  }
  return true;
}

/** How two files' answers differ, sample by sample, on the positions given. */
export function countDifferences(comparison: DigestComparison): DigestDifferences {
  const { digests, other, otherPositionOf, positions, collections } = comparison;
  const sampleCount = Math.floor(digests.length / DIGEST_BYTES);
  const otherCount = Math.floor(other.length / DIGEST_BYTES);
  const byCollection = new Map<string, number>();
  const byType = new Map<EntityType, number>();
  let differing = 0;
  const total = positions === null ? sampleCount : positions.length;
  for (let at = 0; at < total; at += 1) {
    const position = positions === null ? at : (positions[at] ?? 0);
    const mapped = otherPositionOf === null ? position : (otherPositionOf[position] ?? -1);
    const hasOther = mapped >= 0 && mapped < otherCount;
    const second = hasOther ? other : EMPTY_RECORD;
    const secondAt = hasOther ? mapped * DIGEST_BYTES : 0;
    const firstAt = position * DIGEST_BYTES;
    if (isSameAnswer(digests, firstAt, second, secondAt)) continue;
    differing += 1;
    const collection = collections[position] ?? "";
    byCollection.set(collection, (byCollection.get(collection) ?? 0) + 1);
    const mask = (digests[firstAt + HASH_BYTES] ?? 0) | (second[secondAt + HASH_BYTES] ?? 0);
    ENTITY_TYPES.forEach((type, bit) => {
      if ((mask & (1 << bit)) !== 0) byType.set(type, (byType.get(type) ?? 0) + 1);
    });
    if (comparison.stopAbove !== undefined && differing > comparison.stopAbove) break;
  }
  return { differing, byCollection, byType };
}

/**
 * Protocol §12's distance between two test files, the one the publication
 * guard refuses by and the maintainer's review lists other accounts' files
 * by ("within the same distance"): the samples counted are the ranking
 * slice's (`positions`, in gold order), and two files are close when their
 * answers differ in fewer than `required` = max(25, ceil(1% of the ranking
 * slice's n)) of them. The 1% is of the ranking slice, not of the whole
 * split: the guard protects what public numbers are made of.
 */
type PublicationDistance = { positions: Uint32Array; required: number };

export function publicationDistance(gold: { releaseId: string; slices: TestSlices | null }): PublicationDistance {
  const ranking = gold.slices?.ranking ?? null;
  if (ranking === null) throw new Error(`release ${gold.releaseId}: the test split has no slices`);
  return { positions: ranking, required: Math.max(MIN_DIFFERING_SAMPLES, Math.ceil(ranking.length / 100)) };
}

export type TooClose = { rule: "overall" } | { rule: "collection"; group: string } | { rule: "type"; group: EntityType };

/** The group half of the §12 rule: each collection of `shownCollections` and each entity type must differ in 0 or at least `minGroupN` samples. */
type GroupRule = { minGroupN: number; shownCollections: ReadonlySet<string> };

/**
 * The §12 verdict: null when the two files are far enough apart, else the
 * first rule broken: fewer than `required` differing samples overall, or a
 * collection or entity type where the files differ in some samples but fewer
 * than `minGroupN` (a group that does not differ at all reads nothing). Only
 * the collections in `shownCollections` are held to the group rule: one with
 * fewer than `minGroupN` samples in the slice shows its size and no numbers,
 * so nothing can be read from it alone, and no file could differ in
 * `minGroupN` of its samples; the overall rule covers it. No group rule
 * (null): the overall rule only.
 */
export function tooCloseOf(differences: DigestDifferences, required: number, groupRule: GroupRule | null): TooClose | null {
  if (differences.differing < required) return { rule: "overall" };
  if (groupRule === null) return null;
  const { minGroupN, shownCollections } = groupRule;
  for (const [group, count] of [...differences.byCollection].sort(([first], [second]) => first.localeCompare(second))) {
    if (shownCollections.has(group) && count > 0 && count < minGroupN) return { rule: "collection", group };
  }
  for (const type of ENTITY_TYPES) {
    const count = differences.byType.get(type) ?? 0;
    if (count > 0 && count < minGroupN) return { rule: "type", group: type };
  }
  return null;
}
