/**
 * npm run demo:entries
 *
 * Publishes the hand-written demo prediction files (data/demo-predictions/) as
 * three entries of demo teams on the active demo release, so the quick start's
 * leaderboard has entries beside the baselines. Demo accounts have no password
 * and cannot sign in. Idempotent: files already submitted are not submitted
 * again. Refuses to run unless the active release is the bundled demo release.
 *
 * npm run demo:entries -- --reproduce [--wait-seconds 300]
 *
 * Once a worker runs (`npm run up` starts this in the background after the
 * worker), a demo maintainer re-runs the Cy entry: the same rankings in another
 * line order are uploaded and scored like any test file, and the entry goes
 * through the maintainer's reproduction check (lib/domain/publication/check-reproduction.ts), so the quick
 * start shows a `reproduced` entry. Idempotent as well.
 */
import { runMain } from "@/lib/web/server/close-connections";
import { createReadStream } from "node:fs";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { integerOption, parseCommandLine } from "../command-line";
import type { UserActor } from "@/lib/domain/accounts/actor";
import { checkReproduction } from "@/lib/domain/publication/check-reproduction";
import { db } from "@/lib/platform/db";
import { getActiveRelease } from "@/lib/domain/releases/get-release";
import { createSubmission } from "@/lib/domain/uploads/create-submission";
import { discardStagedFile, stageUpload } from "@/lib/platform/files/staging";
import { getEnv } from "@/lib/platform/env";
import { buildFactSheet, completeFactSheet } from "@/lib/core/fact-sheet/build-fact-sheet";
import { factSheetColumns } from "@/lib/domain/publication/fact-sheet-columns";
import { recordAudit } from "@/lib/platform/audit/record-audit";

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
    systemName: "Bo fine-tuned 1B (demo)",
    description: "Hand-written illustrative predictions of a weaker, small fine-tuned language model; not a real system.",
    // Incomplete (no code, no configuration, no protocol answers): the scored tier, but its
    // data use is stated, so it is what a reader finds filtering to open-weights
    // fine-tuned systems that used no source data.
    factSheet: (team: string) =>
      buildFactSheet("Bo fine-tuned 1B (demo)", {
        team,
        approach: "fine-tuned-llm",
        baseModel: "Demo-1B",
        parameters: 1_000_000_000,
        openWeights: true,
        dataUsed: { train: true, dev: false, sourceCollections: false, wikiBeyondKb: false },
      }),
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

/** The entry a demo maintainer reproduces, and who does it (no password: cannot sign in). */
const REPRODUCED = ENTRIES[2];
const REPRODUCER = { email: "demo-reproducer@demo.invalid", displayName: "Demo maintainer (reproduction)" };

const emailOf = (team: string) => `${team.toLowerCase().replace(/[^a-z]+/g, "-")}@demo.invalid`;

type Release = Awaited<ReturnType<typeof getActiveRelease>>;

async function publishDemoEntries(release: Release): Promise<void> {
  for (const entry of ENTRIES) {
    const email = emailOf(entry.team);
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
    await recordAudit(db, { actorId: null, action: "submission.approve", targetType: "Submission", targetId: submission.id, reason: "demo entry published by npm run demo:entries" });
    console.log(`${entry.systemName}: submitted and published (${submission.id}); a worker scores it`);
  }
}

/** Waits until the worker has scored the submission; an error naming it after `waitMs`. */
async function waitUntilScored(submissionId: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (;;) {
    const row = await db.submission.findUniqueOrThrow({ where: { id: submissionId }, select: { status: true, failureReason: true } });
    if (row.status === "SCORED") return;
    if (row.status === "FAILED") throw new Error(`submission ${submissionId} ended ${row.status}: ${row.failureReason ?? "no message"}`);
    if (Date.now() > deadline) throw new Error(`submission ${submissionId} is still ${row.status} after ${Math.round(waitMs / 1000)} s: is a worker running?`);
    await sleep(500);
  }
}

/** The demo maintainer's re-run of the Cy entry, checked by the platform's reproduction check. */
async function reproduceDemoEntry(release: Release, waitMs: number): Promise<void> {
  const owner = await db.user.findUnique({ where: { email: emailOf(REPRODUCED.team) } });
  const entry = owner
    ? await db.submission.findFirst({ where: { userId: owner.id, releaseId: release.id, originalName: REPRODUCED.file, publication: "PUBLISHED" }, orderBy: { createdAt: "desc" } })
    : null;
  if (entry === null) {
    console.log(`${REPRODUCED.systemName}: not published on this release (run npm run demo:entries first): nothing reproduced.`);
    return;
  }
  if (entry.reproducedAt !== null) {
    console.log(`${REPRODUCED.systemName}: already reproduced (${entry.id})`);
    return;
  }
  await waitUntilScored(entry.id, waitMs);
  const maintainer = await db.user.upsert({
    where: { email: REPRODUCER.email },
    create: { email: REPRODUCER.email, displayName: REPRODUCER.displayName, role: "MAINTAINER" },
    update: {},
  });
  // A re-run's file: the same rankings, written in another order.
  const lines = (await readFile(path.join(DIR, REPRODUCED.file), "utf8")).split("\n").filter((line) => line.length > 0).reverse();
  const staged = await stageUpload(Readable.from([Buffer.from(`${lines.join("\n")}\n`)]), getEnv().UPLOAD_MAX_BYTES);
  const earlier = await db.submission.findFirst({ where: { userId: maintainer.id, releaseId: release.id, fileSha256: staged.sha256 } });
  let reproductionId: string;
  if (earlier !== null) {
    await discardStagedFile(staged);
    reproductionId = earlier.id;
  } else {
    reproductionId = (await createSubmission({ userId: maintainer.id, staged, originalName: `rerun-${REPRODUCED.file}`, releaseId: release.id })).id;
  }
  await waitUntilScored(reproductionId, waitMs);
  const actor: UserActor = { kind: "user", userId: maintainer.id, role: "MAINTAINER", displayName: REPRODUCER.displayName, via: "session" };
  await checkReproduction(actor, entry.id, { reproductionId, reason: "demo: a maintainer re-ran the demo retriever (npm run demo:entries -- --reproduce)" });
  console.log(`${REPRODUCED.systemName}: reproduced by ${REPRODUCER.displayName} with ${reproductionId}`);
}

const USAGE = `Usage: npm run demo:entries [-- --reproduce [--wait-seconds SECONDS]]

Publishes the demo prediction files (data/demo-predictions/) as entries of demo
teams on the active demo release; does nothing on any other release.

  --reproduce      a demo maintainer re-runs one demo entry and checks the
                   reproduction (needs a running worker)
  --wait-seconds   how long --reproduce waits for the re-run to be scored
                   (default 300)
  --help           show this help`;

async function main(): Promise<void> {
  const command = parseCommandLine({ name: "npm run demo:entries", usage: USAGE, options: { reproduce: { type: "boolean" }, "wait-seconds": { type: "string" } } });
  const { values } = command;
  const waitSeconds = integerOption(command, "wait-seconds", values["wait-seconds"], { min: 1, fallback: 300 });
  const release = await getActiveRelease();
  if (release.name !== DEMO_RELEASE) {
    console.log(`The active release is ${release.name}, not the demo release: no demo entries added.`);
    return;
  }
  if (values.reproduce) await reproduceDemoEntry(release, waitSeconds * 1000);
  else await publishDemoEntries(release);
}

runMain(main);
