import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { AppError, type ProblemDetail } from "@/lib/core/errors";
import { getSharedRedis } from "@/lib/platform/redis";
import { createSubmission } from "@/lib/domain/uploads/create-submission";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { isStored, overwriteStoredText } from "./support/stored-files";
import { fileExists, stageText, submitLines } from "./support/uploads";
import { waitFor, waitForStatus } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * A file is rejected as a whole (protocol section 4). Before a submission
 * exists, that costs nothing: no row, no stored file, no quota. A stored file
 * that no longer validates when the worker reads it fails at once as INVALID,
 * without the retries meant for infrastructure faults.
 */
let release: TestRelease;
let participant: TestUser;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser({ label: "invalid-files", withoutPassword: true });
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

type Rejection = { error: AppError; tempPath: string };

/** Uploads the text and expects pre-flight to refuse it; checks that nothing was left behind. */
async function expectRejected(text: string, options: { declaredSplit?: "dev" | "test"; declaredTrack?: "open" | "closed" } = {}): Promise<Rejection> {
  const before = await db.submission.count();
  const quotaBefore = await getTestQuota(participant.id, release.releaseId);
  const staged = await stageText(text);
  expect(await fileExists(staged.tempPath)).toBe(true);
  const error = await createSubmission({ userId: participant.id, staged, originalName: "bad.jsonl", ...options }).then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  expect(await db.submission.count()).toBe(before);
  expect(await fileExists(staged.tempPath)).toBe(false);
  expect(await isStored(staged.sha256)).toBe(false);
  const quotaAfter = await getTestQuota(participant.id, release.releaseId);
  expect(quotaAfter.usedTotal).toBe(quotaBefore.usedTotal);
  expect(quotaAfter.remaining).toBe(quotaBefore.remaining);
  return { error, tempPath: staged.tempPath };
}

function problemAt(problems: readonly ProblemDetail[], line: number): ProblemDetail {
  const found = problems.find((problem) => problem.line === line);
  if (!found) throw new Error(`no problem reported on line ${line}; got ${JSON.stringify(problems)}`);
  return found;
}

function idOf(line: string): string {
  const value: unknown = JSON.parse(line);
  if (value && typeof value === "object" && "id" in value && typeof value.id === "string") return value.id;
  throw new Error(`no id in ${line}`);
}

describe("pre-flight rejection of a test-split file", () => {
  it("a duplicate id names both lines; nothing is stored and no quota is used", async () => {
    const lines = predictionLines(release, "test", "open", 0.4, 21);
    const withDuplicate = [...lines, lines[2] ?? ""];
    const { error } = await expectRejected(toJsonl(withDuplicate), { declaredSplit: "test" });
    expect(error.code).toBe("validation");
    const problem = problemAt(error.problems, withDuplicate.length);
    expect(problem.message).toContain(`duplicate id "${idOf(lines[2] ?? "")}"`);
    expect(problem.message).toContain("first seen on line 3");
  });

  it("an unknown id and bad JSON are reported on their lines, with the missing samples counted", async () => {
    const lines = predictionLines(release, "test", "closed", 0.4, 22);
    const broken = [...lines];
    const replacedId = idOf(lines[4] ?? "");
    broken[4] = JSON.stringify({ id: "irc-no-such-sample", ranking: ["Q1"] });
    broken[6] = '{"id": "irc-000001", "ranking": [';
    const { error } = await expectRejected(toJsonl(broken));
    expect(error.code).toBe("validation");
    expect(problemAt(error.problems, 5).message).toContain('unknown id "irc-no-such-sample"');
    expect(problemAt(error.problems, 7).message).toMatch(/^invalid JSON/);
    const missing = error.problems.find((problem) => problem.line === undefined && /missing/.test(problem.message));
    expect(missing?.message).toContain(replacedId);
    expect(error.message).toMatch(/no quota was used/);
  });

  it("a line of the other track and a ranking with a QID outside the KB are named by line", async () => {
    const lines = predictionLines(release, "test", "closed", 0.4, 23);
    const broken = [...lines];
    broken[9] = JSON.stringify({ id: idOf(lines[9] ?? ""), prediction: "Some Place" });
    broken[10] = JSON.stringify({ id: idOf(lines[10] ?? ""), ranking: ["Q1", "Q1"] });
    const { error } = await expectRejected(toJsonl(broken), { declaredTrack: "closed" });
    expect(error.code).toBe("validation");
    expect(problemAt(error.problems, 10).message).toMatch(/open-world line/);
    expect(problemAt(error.problems, 11).message).toMatch(/ranking/);
  });

  it("a file whose ids belong to another split than declared is refused before validation", async () => {
    const devLines = predictionLines(release, "dev", "open", 0.4, 24);
    const { error } = await expectRejected(toJsonl(devLines), { declaredSplit: "test" });
    expect(error.code).toBe("validation");
    expect(error.message).toMatch(/dev samples/);

    const trainId = release.content.samples.train[0]?.id ?? "";
    const { error: trainError } = await expectRejected(`${JSON.stringify({ id: trainId, prediction: "x" })}\n`);
    expect(trainError.code).toBe("validation");
    expect(trainError.message).toMatch(/training sample/);
  });
});

describe("a stored file that no longer validates", () => {
  it("ends FAILED/INVALID after exactly one attempt, with a reason naming the line", async () => {
    const lines = predictionLines(release, "dev", "open", 0.5, 25);
    const submission = await submitLines(lines, { userId: participant.id });
    expect(submission.status).toBe("QUEUED");

    // Corrupt the content-addressed copy behind the submission's back.
    const corrupted = [...lines];
    corrupted[3] = JSON.stringify({ id: "irc-corrupted", prediction: "x" });
    await overwriteStoredText(submission.fileSha256, toJsonl(corrupted));

    worker = await startWorker({ WORKER_CONCURRENCY: "1" });
    const failed = await waitForStatus(submission.id, ["FAILED", "SCORED"], { timeoutMs: 60_000, workers: [worker] });
    expect(failed.status).toBe("FAILED");
    expect(failed.failureKind).toBe("INVALID");
    expect(failed.attempts).toBe(1);
    expect(failed.failureReason).toContain("line 4");
    expect(failed.failureReason).toContain("irc-corrupted");
    expect(failed.finishedAt).not.toBeNull();
    expect(await db.score.count({ where: { submissionId: submission.id } })).toBe(0);
    expect(await db.comparison.count({ where: { entryId: submission.id } })).toBe(0);

    // No retry is scheduled: the job is finally failed (a retry would be "delayed"), after one attempt.
    // (The submission is marked FAILED just before the job itself fails.)
    const job = await waitFor(
      async () => {
        const found = await getScoringQueue().getJob(submission.id);
        const state = await found?.getState();
        return state === "failed" || state === "delayed" || state === "completed" ? found : undefined;
      },
      () => "the job did not finish",
      { timeoutMs: 30_000, workers: [worker] },
    );
    expect(await job?.getState()).toBe("failed");
    expect(job?.attemptsMade).toBe(1);
    expect(job?.failedReason).toContain("line 4");
  });
});
