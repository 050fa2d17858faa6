import "server-only";
import { db } from "@/lib/platform/db";
import { fromDbEntityType } from "@/lib/domain/releases/entity-type";

type ExamplePair = {
  sampleId: string;
  collection: string;
  implicitText: string;
  explicitText: string;
  entity: { qid: string; name: string; type: string };
};

/** One training sample to explain the task; training gold is public, test gold is never read here. */
export async function getExamplePair(releaseId: string): Promise<ExamplePair | null> {
  const sample = await db.sample.findFirst({
    where: { releaseId, split: "train" },
    orderBy: { ordinal: "asc" },
    include: { entity: true },
  });
  if (!sample) return null;
  return {
    sampleId: sample.sampleId,
    collection: sample.collection,
    implicitText: sample.implicitText,
    explicitText: sample.explicitText,
    entity: { qid: sample.entity.qid, name: sample.entity.name, type: fromDbEntityType(sample.entity.type) },
  };
}

/** The id of the release's first dev sample, for format examples that use the release's own id format (dev ids are public). */
export async function getExampleSampleId(releaseId: string): Promise<string | null> {
  const sample = await db.sample.findFirst({ where: { releaseId, split: "dev" }, orderBy: { ordinal: "asc" }, select: { sampleId: true } });
  return sample?.sampleId ?? null;
}
