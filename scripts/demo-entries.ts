/**
 * npm run demo:entries
 *
 * Publishes the hand-written demo prediction files (data/demo-predictions/) as
 * three entries of demo teams on the active demo release, so the quick start's
 * leaderboard has entries beside the baselines. Demo accounts have no password
 * and cannot sign in. Idempotent: files already submitted are not submitted
 * again. Refuses to run unless the active release is the bundled demo release.
 */
import { runMain } from "@/lib/server/close-connections";
import { createReadStream } from "node:fs";
import path from "node:path";
import { db } from "@/lib/db";
import { getActiveRelease } from "@/lib/releases/get-release";
import { createSubmission } from "@/lib/submissions/create-submission";
import { discardStagedFile, stageUpload } from "@/lib/files/staging";
import { getEnv } from "@/lib/env";

const DEMO_RELEASE = "irc-bench-demo";
const DIR = path.join("data", "demo-predictions");

const ENTRIES = [
  {
    file: "test-open.jsonl",
    team: "Demo team Ada",
    systemName: "Ada-LLM few-shot (demo)",
    description: "Hand-written illustrative predictions in the style of a few-shot prompted language model; not a real system.",
    parameterCount: BigInt(8_000_000_000),
    isOpenWeights: true,
  },
  {
    file: "test-open-weak.jsonl",
    team: "Demo team Bo",
    systemName: "Bo zero-shot (demo)",
    description: "Hand-written illustrative predictions of a weaker zero-shot system; not a real system.",
    parameterCount: BigInt(1_000_000_000),
    isOpenWeights: false,
  },
  {
    file: "test-closed.jsonl",
    team: "Demo team Cy",
    systemName: "Cy dense retriever (demo)",
    description: "Hand-written illustrative rankings in the style of a fine-tuned dense retriever over entity descriptions; not a real system.",
    parameterCount: BigInt(110_000_000),
    isOpenWeights: true,
  },
] as const;

async function main(): Promise<void> {
  const release = await getActiveRelease();
  if (release.name !== DEMO_RELEASE) {
    console.log(`The active release is ${release.name}, not the demo release: no demo entries added.`);
    return;
  }
  for (const entry of ENTRIES) {
    const email = `${entry.team.toLowerCase().replace(/[^a-z]+/g, "-")}@demo.invalid`;
    const user = await db.user.upsert({ where: { email }, create: { email, displayName: entry.team }, update: {} });
    const staged = await stageUpload(createReadStream(path.join(DIR, entry.file)), getEnv().UPLOAD_MAX_BYTES);
    const existing = await db.submission.findFirst({ where: { userId: user.id, releaseId: release.id, fileSha256: staged.sha256 } });
    if (existing) {
      await discardStagedFile(staged);
      console.log(`${entry.systemName}: already there (${existing.id})`);
      continue;
    }
    const submission = await createSubmission({ userId: user.id, staged, originalName: entry.file, releaseId: release.id });
    await db.submission.update({
      where: { id: submission.id },
      data: {
        publication: "PUBLISHED",
        publishedAt: new Date(),
        requestedAt: new Date(),
        systemName: entry.systemName,
        methodDescription: entry.description,
        parameterCount: entry.parameterCount,
        isOpenWeights: entry.isOpenWeights,
        externalData: "none",
      },
    });
    await db.auditLog.create({
      data: { action: "submission.approve", targetType: "Submission", targetId: submission.id, reason: "demo entry published by npm run demo:entries" },
    });
    console.log(`${entry.systemName}: submitted and published (${submission.id}); a worker scores it`);
  }
}

runMain(main);
