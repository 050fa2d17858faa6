import "server-only";
import { db } from "@/lib/platform/db";
import { memoizeLoad } from "@/lib/platform/memo";
import type { Split as DbSplit } from "@/lib/platform/generated/prisma";
import { fromDbEntityType } from "@/lib/domain/releases/entity-type";
import { buildGold, buildKbIndex, type GoldRecord, type KbIndex } from "@/lib/core/scoring/gold";
import { buildAnswerIndex, type AnswerIndex } from "@/lib/core/integrity/answer-digests";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import { computeTestSlices, type TestSlices } from "@/lib/core/slices/slice-membership";

/**
 * Gold and KB of a release, loaded once per process: an imported release never
 * changes (a new version is a new release). Server-side only — the test gold
 * loaded here feeds the scorer and nothing else.
 */
export type SplitGold = {
  releaseId: string;
  split: DbSplit;
  gold: GoldRecord[];
  kb: KbIndex;
  sampleIds: string[];
  /**
   * Test split only: QIDs of the release's train and dev entities, for the
   * probe flags (docs/integrity.md). Splits are entity-level, so none of them
   * is test gold. Null for other splits.
   */
  knownSplitQids: ReadonlySet<string> | null;
  /** Test split only: the positions (in gold order) of the feedback and ranking slices (protocol section 12). Null for other splits. */
  slices: TestSlices | null;
};

/** Releases kept per process: the active one and the few older versions readers open. */
const RELEASES_KEPT = 8;

const kbCache = memoizeLoad(
  (releaseId) =>
    db.entity
      .findMany({ where: { releaseId }, select: { qid: true, name: true, type: true, aliases: true }, orderBy: { ordinal: "asc" } })
      .then((rows) => buildKbIndex(rows.map((row) => ({ ...row, type: fromDbEntityType(row.type) })))),
  { max: RELEASES_KEPT },
);

export function loadKb(releaseId: string): Promise<KbIndex> {
  return kbCache.get(releaseId);
}

const goldCache = memoizeLoad(
  async (key) => {
    const [releaseId = "", split = "test"] = key.split(":") as [string, DbSplit];
    const [kb, samples, knownSplitQids, release] = await Promise.all([
      loadKb(releaseId),
      db.sample.findMany({
        where: { releaseId, split },
        orderBy: { ordinal: "asc" },
        select: { sampleId: true, collection: true, entity: { select: { qid: true } } },
      }),
      split === "test" ? loadKnownSplitQids(releaseId) : Promise.resolve(null),
      db.datasetRelease.findUniqueOrThrow({ where: { id: releaseId }, select: { sliceFamily: true, feedbackFraction: true } }),
    ]);
    const gold = buildGold(
      samples.map((sample) => ({ id: sample.sampleId, qid: sample.entity.qid, collection: sample.collection })),
      kb,
    );
    const sampleIds = gold.map((record) => record.id);
    const slices =
      split === "test"
        ? computeTestSlices({ secret: sliceSecretOf(getEnv()), sliceFamily: release.sliceFamily, feedbackFraction: release.feedbackFraction }, gold.map((record) => record.qid))
        : null;
    return { releaseId, split, gold, kb, sampleIds, knownSplitQids, slices } satisfies SplitGold;
  },
  { max: RELEASES_KEPT * 3 },
);

export function loadSplitGold(releaseId: string, split: DbSplit): Promise<SplitGold> {
  return goldCache.get(`${releaseId}:${split}`);
}

const knownSplitQidsCache = memoizeLoad(
  (releaseId) =>
    db.entity
      .findMany({ where: { releaseId, samples: { some: { split: { in: ["train", "dev"] } } } }, select: { qid: true } })
      .then((rows): ReadonlySet<string> => new Set(rows.map((row) => row.qid))),
  { max: RELEASES_KEPT },
);

/** One query per process and release: the entities with at least one train or dev sample (public: train.jsonl and dev.jsonl name them). */
export function loadKnownSplitQids(releaseId: string): Promise<ReadonlySet<string>> {
  return knownSplitQidsCache.get(releaseId);
}

const answerIndexCache = memoizeLoad(
  (releaseId) => Promise.all([loadKb(releaseId), loadKnownSplitQids(releaseId)]).then(([kb, known]) => buildAnswerIndex(kb, known)),
  { max: RELEASES_KEPT },
);

/** The release's KB as the unified view reads answers, with its train and dev golds (protocol §12, answer-digests.ts), built once per process. */
export function loadAnswerIndex(releaseId: string): Promise<AnswerIndex> {
  return answerIndexCache.get(releaseId);
}

/** Forget cached gold (tests that re-import releases under the same id never happen; this is for re-import tooling). @internal exported for its tests. */
export function clearGoldCache(): void {
  kbCache.clear();
  goldCache.clear();
  knownSplitQidsCache.clear();
  answerIndexCache.clear();
}
