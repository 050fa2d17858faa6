import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { isAppError } from "@/lib/core/errors";
import { getSharedRedis } from "@/lib/platform/redis";
import { getQueueOverview } from "@/lib/domain/scoring/get-queue-overview";
import { getQueuePosition } from "@/lib/domain/scoring/get-queue-position";
import { getSubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { markSubmissionFailed } from "@/lib/domain/scoring/process-submission";
import { retrySubmission } from "@/lib/domain/scoring/retry-submission";
import { getScoringQueue, submissionIdOfJobId } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitForAllSettled } from "./support/wait";
import { startWorker } from "./support/workers";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * What /admin/queue and the owner's submission page read: the queue position
 * of a waiting submission, the maintainer's overview of jobs, failures and
 * workers, and the audited retry of a failed submission.
 */
let release: TestRelease;
let owner: TestUser;
let maintainer: TestUser;
const ids: string[] = [];

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  owner = await createTestUser({ label: "queue-owner", withoutPassword: true });
  maintainer = await createTestUser({ label: "queue-maintainer", role: "MAINTAINER", withoutPassword: true });
  for (const seed of [701, 702, 703]) ids.push((await submitLines(predictionLines(release, "dev", "open", 0.5, seed), { userId: owner.id })).id);
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function refusal(run: () => Promise<unknown>): Promise<string> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  return isAppError(error) ? error.code : `no AppError: ${String(error)}`;
}

describe("queue position", () => {
  it("counts from 1 in the order workers take the jobs (oldest first), and shows on the owner's view", async () => {
    expect(await Promise.all(ids.map((id) => getQueuePosition(id)))).toEqual([
      { position: 1, waiting: 3, beingScored: 0 },
      { position: 2, waiting: 3, beingScored: 0 },
      { position: 3, waiting: 3, beingScored: 0 },
    ]);
    const view = await getSubmissionView(sessionActor(owner), ids[1] ?? "");
    expect(view.queuePosition).toEqual({ position: 2, waiting: 3, beingScored: 0 });
  });

  it("is null for a submission without a waiting job", async () => {
    expect(await getQueuePosition("nosuchsubmission")).toBeNull();
  });
});

describe("queue overview and retry", () => {
  it("is for maintainers only", async () => {
    expect(await refusal(() => getQueueOverview(sessionActor(owner)))).toBe("forbidden");
    expect(await refusal(() => retrySubmission(sessionActor(owner), ids[0] ?? ""))).toBe("forbidden");
  });

  it("lists the waiting jobs with submission and owner, and a failed submission with its message", async () => {
    const failedId = ids[2] ?? "";
    await (await getScoringQueue().getJob(failedId))?.remove();
    await markSubmissionFailed(failedId, "INTERNAL", "Scoring was started 20 times and never finished.");

    const overview = await getQueueOverview(sessionActor(maintainer));
    expect(overview.queueProblem).toBeNull();
    expect(overview.counts).toMatchObject({ waiting: 2, active: 0 });
    expect(overview.isPaused).toBe(false);
    expect(overview.jobs.map((job) => [job.state, job.submissionId, job.ownerName, job.attempts])).toEqual([
      ["waiting", ids[0], owner.displayName, 0],
      ["waiting", ids[1], owner.displayName, 0],
    ]);
    expect(overview.failed).toEqual([
      expect.objectContaining({ submissionId: failedId, ownerName: owner.displayName, failureKind: "INTERNAL", failureReason: "Scoring was started 20 times and never finished. It was not charged to any test quota, so there was nothing to refund." }),
    ]);
    expect(overview.workers).toEqual([]);
  });

  it("a retry queues the failed submission again from 0 attempts, audited; a second retry is refused", async () => {
    const failedId = ids[2] ?? "";
    await db.submission.update({ where: { id: failedId }, data: { attempts: 20 } });
    expect(await retrySubmission(sessionActor(maintainer), failedId, "worker fixed")).toEqual({ submissionId: failedId, isQueued: true, isChargedAgain: false });

    const row = await db.submission.findUniqueOrThrow({ where: { id: failedId } });
    expect(row).toMatchObject({ status: "QUEUED", attempts: 0, failureKind: null, failureReason: null });
    const audit = await db.auditLog.findFirstOrThrow({ where: { targetId: failedId, action: "submission.retry" } });
    expect(audit).toMatchObject({ actorId: maintainer.id, targetType: "Submission", reason: "worker fixed" });
    expect(audit.details).toEqual({
      from: { status: "FAILED", attempts: 20, failureKind: "INTERNAL", failureReason: "Scoring was started 20 times and never finished. It was not charged to any test quota, so there was nothing to refund." },
      isChargedAgain: false,
    });
    const live = (await getScoringQueue().getJobs(["waiting"])).filter((job) => job.id && submissionIdOfJobId(job.id) === failedId);
    expect(live).toHaveLength(1);
    expect((await getQueueOverview(sessionActor(maintainer))).failed).toEqual([]);

    expect(await refusal(() => retrySubmission(sessionActor(maintainer), failedId))).toBe("conflict");
    expect(await refusal(() => retrySubmission(sessionActor(maintainer), "nosuchsubmission"))).toBe("not_found");
  });

  it("a worker scores all three, and the overview shows it alive", async () => {
    const worker = await startWorker({ WORKER_CONCURRENCY: "1" });
    await waitForAllSettled(ids, { timeoutMs: 60_000, workers: [worker] });
    const rows = await db.submission.findMany({ where: { id: { in: ids } } });
    expect(rows.map((row) => row.status)).toEqual(["SCORED", "SCORED", "SCORED"]);
    const overview = await getQueueOverview(sessionActor(maintainer));
    expect(overview.jobs).toEqual([]);
    expect(overview.workers).toEqual([expect.objectContaining({ isAlive: true })]);
  });
});
