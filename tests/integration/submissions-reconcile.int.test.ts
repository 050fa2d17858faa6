import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { reconcileScoringQueue } from "@/lib/domain/scoring/reconcile-queue";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitFor, waitForAllScored } from "./support/wait";
import { startWorker } from "./support/workers";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * The reconciler re-queues submissions that wait without a live job. A
 * submission whose live job is a re-score (job id "<id>-r<generation>") has
 * one, and so has one the reconciler itself re-queued a moment ago: queuing
 * those again would score them twice, every reconcile interval.
 */
const LIVE = ["waiting", "active", "delayed", "prioritized", "waiting-children"] as const;

let release: TestRelease;
let owner: TestUser;
let maintainer: TestUser;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  [owner, maintainer] = [await createTestUser({ label: "reconcile-owner", withoutPassword: true }), await createTestUser({ label: "reconcile-maintainer", role: "MAINTAINER", withoutPassword: true })];
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function liveJobIdsOf(submissionId: string): Promise<string[]> {
  const jobs = await getScoringQueue().getJobs([...LIVE]);
  return jobs.filter((job) => job.data.submissionId === submissionId).flatMap((job) => (job.id === undefined ? [] : [job.id]));
}

/** As if the submission had waited in a long queue for a minute. */
async function ageQueuedAt(submissionId: string): Promise<void> {
  await db.submission.update({ where: { id: submissionId }, data: { queuedAt: new Date(Date.now() - 60_000) } });
}

describe("reconcileScoringQueue", () => {
  it("leaves a waiting re-score job alone, re-queues a lost one exactly once, and the worker then scores it once", async () => {
    const submission = await submitLines(predictionLines(release, "dev", "open", 0.5, 81), { userId: owner.id });
    const first = await startWorker({ WORKER_CONCURRENCY: "1" });
    await waitForAllScored([submission.id], { timeoutMs: 60_000, workers: [first] });
    await waitFor(
      async () => ((await (await getScoringQueue().getJob(submission.id))?.getState()) === "completed" ? true : undefined),
      () => "the first job did not complete",
      { workers: [first] },
    );
    await first.stop();
    const scoredOnce = await db.submission.findUniqueOrThrow({ where: { id: submission.id }, include: { score: true } });
    expect(scoredOnce.attempts).toBe(1);

    // A maintainer asks for a re-score while no worker runs; the job waits.
    await reviewSubmission(sessionActor(maintainer), submission.id, { action: "rescore", reason: "reconciler check" });
    const [rescoreJobId] = await liveJobIdsOf(submission.id);
    expect(rescoreJobId).toMatch(new RegExp(`^${submission.id}-r\\d+$`));
    await ageQueuedAt(submission.id);
    expect(await reconcileScoringQueue()).toBe(0);
    expect(await reconcileScoringQueue()).toBe(0);
    expect(await liveJobIdsOf(submission.id)).toEqual([rescoreJobId]);

    // Redis loses the job: the reconciler queues it again, once, however often it runs.
    await (await getScoringQueue().getJob(rescoreJobId ?? ""))?.remove();
    expect(await liveJobIdsOf(submission.id)).toEqual([]);
    expect(await reconcileScoringQueue()).toBe(1);
    expect(await reconcileScoringQueue()).toBe(0);
    expect(await liveJobIdsOf(submission.id)).toHaveLength(1);

    const second = await startWorker({ WORKER_CONCURRENCY: "1" });
    await waitFor(
      async () => {
        const row = await db.submission.findUniqueOrThrow({ where: { id: submission.id } });
        const live = await liveJobIdsOf(submission.id);
        return row.status === "SCORED" && live.length === 0 ? row : undefined;
      },
      () => "the re-queued job was not processed",
      { timeoutMs: 60_000, workers: [second] },
    );
    const rescored = await db.submission.findUniqueOrThrow({ where: { id: submission.id }, include: { score: true } });
    expect(rescored.attempts).toBe(2);
    expect(rescored.score?.report).toEqual(scoredOnce.score?.report);
  });
});
