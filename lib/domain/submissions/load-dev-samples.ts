import "server-only";
import { db } from "@/lib/platform/db";
import { memoizeLoad } from "@/lib/platform/memo";
import { fromDbEntityType } from "@/lib/domain/releases/entity-type";
import type { DevSample, KbEntity } from "@/lib/core/submissions/sample-rows";
import { norm } from "@/lib/core/scoring/normalize";

/**
 * The dev split of a release as the instance browser shows it: every sample in
 * gold order (the order of stored outcomes) with its narrative and gold entity,
 * and the KB's names and types (closed-world answers are QIDs). Loaded once per
 * process and release: an imported release never changes. Dev only; the test
 * split's gold never reaches this module.
 */
export type DevSplit = { samples: DevSample[]; kb: ReadonlyMap<string, KbEntity> };

const cache = memoizeLoad((releaseId) => readDevSplit(releaseId), { max: 8 });

export function loadDevSplit(releaseId: string): Promise<DevSplit> {
  return cache.get(releaseId);
}

async function readDevSplit(releaseId: string): Promise<DevSplit> {
  const [rows, entities] = await Promise.all([
    db.sample.findMany({
      where: { releaseId, split: "dev" },
      orderBy: { ordinal: "asc" },
      select: {
        sampleId: true,
        collection: true,
        implicitText: true,
        entity: { select: { qid: true, name: true, type: true, aliases: true, description: true } },
      },
    }),
    db.entity.findMany({ where: { releaseId }, select: { qid: true, name: true, type: true } }),
  ]);
  const samples = rows.map((row, index): DevSample => {
    const gold = { ...row.entity, type: fromDbEntityType(row.entity.type) };
    return {
      index,
      id: row.sampleId,
      collection: row.collection,
      narrative: row.implicitText,
      gold,
      searchText: norm(`${row.implicitText}\n${gold.name}`),
    };
  });
  const kb = new Map(entities.map((entity) => [entity.qid, { qid: entity.qid, name: entity.name, type: fromDbEntityType(entity.type) }]));
  return { samples, kb };
}
