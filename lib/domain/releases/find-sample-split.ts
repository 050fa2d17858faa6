import "server-only";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { getActiveRelease } from "@/lib/domain/releases/get-release";

type SampleSplit = { id: string; split: "train" | "dev" | "test"; release: string };

/** Which split of the active release a sample id belongs to (public: every id is in the downloads). */
export async function findSampleSplit(sampleId: string): Promise<SampleSplit> {
  const release = await getActiveRelease();
  const sample = await db.sample.findUnique({ where: { releaseId_sampleId: { releaseId: release.id, sampleId } }, select: { split: true } });
  if (!sample) throw new AppError("not_found", `"${sampleId}" is not a sample id of ${release.name} ${release.version}.`);
  return { id: sampleId, split: sample.split, release: `${release.name} ${release.version}` };
}
