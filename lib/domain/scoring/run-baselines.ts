import "server-only";
import { Readable } from "node:stream";
import { db } from "@/lib/platform/db";
import type { Submission, SubmissionStatus } from "@/lib/platform/generated/prisma";
import { computeBaselinePredictions } from "@/lib/core/baselines/compute-baselines";
import { createSubmission } from "@/lib/domain/uploads/create-submission";
import { discardStagedFile, stageUpload } from "@/lib/platform/files/staging";
import { getEnv } from "@/lib/platform/env";

const SYSTEM_USER_EMAIL = "baselines@irc-bench.invalid";
const SCORED_SPLITS = ["dev", "test"] as const;

/**
 * outcome: whether this run submitted the baseline ("created") or found the same
 * file already submitted ("existing"); status: where that submission is now, so
 * a baseline queued a moment ago by the import reads as queued, not as done.
 */
export type BaselineRunResult = {
  key: string;
  split: string;
  submissionId: string;
  outcome: "created" | "existing";
  status: SubmissionStatus;
};

/** The system account that owns the computed baselines (it cannot sign in: no password, isSystem). */
async function ensureSystemUser(): Promise<string> {
  const user = await db.user.upsert({
    where: { email: SYSTEM_USER_EMAIL },
    create: { email: SYSTEM_USER_EMAIL, displayName: "IRC-Bench baselines", isSystem: true },
    update: {},
  });
  return user.id;
}

/**
 * Computes the platform's baselines (lib/core/baselines/compute-baselines.ts) for
 * the dev and test splits of a release and submits each as a baseline
 * submission of the system account. Identical files are not submitted twice,
 * so running it again changes nothing.
 */
export async function runBaselines(releaseId: string): Promise<BaselineRunResult[]> {
  const systemUserId = await ensureSystemUser();
  const [entities, train] = await Promise.all([
    db.entity.findMany({ where: { releaseId }, orderBy: { ordinal: "asc" } }),
    db.sample.findMany({ where: { releaseId, split: "train" }, select: { entity: { select: { qid: true } } } }),
  ]);
  const kb = entities.map((entity) => ({
    qid: entity.qid,
    name: entity.name,
    aliases: entity.aliases,
    description: entity.description,
    description_wiki: entity.descriptionWiki,
  }));
  const trainSamples = train.map((sample) => ({ qid: sample.entity.qid }));
  const results: BaselineRunResult[] = [];
  for (const split of SCORED_SPLITS) {
    // Only the ids and texts of the split are read: never its gold.
    const samples = await db.sample.findMany({ where: { releaseId, split }, orderBy: { ordinal: "asc" }, select: { sampleId: true, implicitText: true } });
    if (samples.length === 0) continue;
    const runs = computeBaselinePredictions({
      entities: kb,
      trainSamples,
      samples: samples.map((sample) => ({ id: sample.sampleId, implicit_text: sample.implicitText })),
    });
    for (const run of runs) {
      const staged = await stageUpload(Readable.from(run.lines.map((line) => `${line}\n`)), getEnv().UPLOAD_MAX_BYTES);
      const existing = await db.submission.findFirst({ where: { userId: systemUserId, releaseId, split, fileSha256: staged.sha256 } });
      if (existing) {
        await discardStagedFile(staged);
        results.push({ key: run.key, split, submissionId: existing.id, outcome: "existing", status: existing.status });
        continue;
      }
      const submission: Submission = await createSubmission({
        userId: systemUserId,
        staged,
        releaseId,
        originalName: `${run.key}.${split}.jsonl`,
        declaredSplit: split,
        declaredTrack: run.track,
        isQuotaExempt: true,
        baseline: { label: run.label, description: run.description },
      });
      results.push({ key: run.key, split, submissionId: submission.id, outcome: "created", status: submission.status });
    }
  }
  return results;
}
