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
import { buildFactSheet, completeFactSheet } from "@/lib/fact-sheet/build-fact-sheet";
import { factSheetColumns } from "@/lib/fact-sheet/fact-sheet-columns";

const DEMO_RELEASE = "irc-bench-demo";
const DIR = path.join("data", "demo-predictions");

const ENTRIES = [
  {
    file: "test-open.jsonl",
    team: "Demo team Ada",
    systemName: "Ada-LLM few-shot (demo)",
    description: "Hand-written illustrative predictions in the style of a few-shot prompted language model; not a real system.",
    // A complete fact sheet: the entry shows the documented tier.
    factSheet: (team: string) =>
      completeFactSheet("Ada-LLM few-shot (demo)", {
        team,
        approach: "prompted-llm",
        baseModel: "Demo-8B-instruct",
        knowledgeCutoff: "2023-12",
        parameters: 8_000_000_000,
        openWeights: true,
        configuration: { text: "Five train examples, then: Which entity does this passage refer to? Answer with its name.", url: null },
        compute: "no real compute: hand-written demo predictions",
        codeUrl: "https://example.org/irc-bench-demo/ada",
        dataUsed: { train: true, dev: false, sourceCollections: false, wikiBeyondKb: false, details: "five train examples in the prompt" },
      }),
  },
  {
    file: "test-open-weak.jsonl",
    team: "Demo team Bo",
    systemName: "Bo zero-shot (demo)",
    description: "Hand-written illustrative predictions of a weaker zero-shot system; not a real system.",
    // Incomplete: no code, no configuration, data use not stated.
    factSheet: (team: string) =>
      buildFactSheet("Bo zero-shot (demo)", { team, approach: "prompted-llm", baseModel: "Demo-1B", parameters: 1_000_000_000, openWeights: false }),
  },
  {
    file: "test-closed.jsonl",
    team: "Demo team Cy",
    systemName: "Cy dense retriever (demo)",
    description: "Hand-written illustrative rankings in the style of a fine-tuned dense retriever over entity descriptions; not a real system.",
    factSheet: (team: string) =>
      completeFactSheet("Cy dense retriever (demo)", {
        team,
        approach: "retriever",
        baseModel: null,
        knowledgeCutoff: null,
        parameters: 110_000_000,
        openWeights: true,
        compute: "no real compute: hand-written demo rankings",
        codeUrl: "https://example.org/irc-bench-demo/cy",
        dataUsed: { train: true, dev: true, sourceCollections: false, wikiBeyondKb: false },
      }),
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
        methodDescription: entry.description,
        ...factSheetColumns(entry.factSheet(entry.team)),
      },
    });
    await db.auditLog.create({
      data: { action: "submission.approve", targetType: "Submission", targetId: submission.id, reason: "demo entry published by npm run demo:entries" },
    });
    console.log(`${entry.systemName}: submitted and published (${submission.id}); a worker scores it`);
  }
}

runMain(main);
