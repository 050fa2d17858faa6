import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicationRequest } from "@/testing/publication-request";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getSubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { requestPublication } from "@/lib/domain/publication/request-publication";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { comparisonPairCounts, scoredBaselineIds } from "./support/comparisons";
import { caught } from "./support/errors";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitFor, waitForAllSettled, waitForQueueIdle } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Publication and the maintainers' review: request -> PENDING -> approve or
 * reject (with a reason the owner reads), every action in the audit log;
 * participants cannot review; re-scoring goes through the worker again;
 * marking a baseline re-compares the whole split.
 */
let release: TestRelease;
let owner: TestUser;
let maintainer: TestUser;
let participant: TestUser;
let worker: WorkerProcess | undefined;
let approvedId = "";
let rejectedId = "";
let devId = "";

const METHOD = publicationRequest("Narrative Linker", {
  methodDescription: "A cross-encoder reranker over BM25 candidates, fine-tuned on the train split.",
  factSheet: { paperUrl: "https://example.org/paper", codeUrl: null, parameters: 110_000_000, openWeights: true },
});

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  [owner, maintainer, participant] = [await createTestUser({ label: "review-owner", withoutPassword: true }), await createTestUser({ label: "review-maintainer", role: "MAINTAINER", withoutPassword: true }), await createTestUser({ label: "review-participant", withoutPassword: true })];
  const baselineIds = (await runBaselines(release.releaseId)).map((result) => result.submissionId);
  approvedId = (await submitLines(predictionLines(release, "test", "open", 0.5, 71), { userId: owner.id })).id;
  rejectedId = (await submitLines(predictionLines(release, "test", "closed", 0.45, 72), { userId: owner.id })).id;
  devId = (await submitLines(predictionLines(release, "dev", "open", 0.5, 73), { userId: owner.id })).id;
  worker = await startWorker({ WORKER_CONCURRENCY: "2" });
  await waitForAllSettled([...baselineIds, approvedId, rejectedId, devId], { timeoutMs: 100_000, workers: [worker] });
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function auditOf(submissionId: string) {
  return db.auditLog.findMany({ where: { targetType: "Submission", targetId: submissionId }, orderBy: { createdAt: "asc" } });
}

describe("publication requests and review", () => {
  it("requestPublication on a scored test submission makes it PENDING with the method's metadata", async () => {
    await requestPublication(sessionActor(owner), approvedId, METHOD);
    const row = await db.submission.findUniqueOrThrow({ where: { id: approvedId } });
    expect(row).toMatchObject({ publication: "PENDING", systemName: "Narrative Linker", methodDescription: METHOD.methodDescription });
    expect(row.factSheet).toEqual(METHOD.factSheet);
    expect(row.factSheet).toMatchObject({ version: 1, paperUrl: "https://example.org/paper", codeUrl: null, parameters: 110_000_000, openWeights: true });
    expect(row.requestedAt).not.toBeNull();

    expect((await caught(() => requestPublication(sessionActor(owner), approvedId, METHOD))).code).toBe("conflict");
    expect((await caught(() => requestPublication(sessionActor(participant), rejectedId, METHOD))).code).toBe("not_found");
    expect((await caught(() => requestPublication(sessionActor(owner), devId, METHOD))).code).toBe("validation");
    const invalid = await caught(() => requestPublication(sessionActor(owner), rejectedId, { ...METHOD, methodDescription: "short" }));
    expect(invalid.code).toBe("validation");
    expect(invalid.problems).toEqual([{ field: "methodDescription", message: 'field "methodDescription" describe the method in at least 20 characters' }]);
    expect((await db.submission.findUniqueOrThrow({ where: { id: rejectedId } })).publication).toBe("PRIVATE");
  });

  it("participants, and maintainers using an API token, get forbidden from reviewSubmission; nothing changes or is logged", async () => {
    for (const actor of [sessionActor(owner), sessionActor(participant), { ...sessionActor(maintainer), via: "token" as const }]) {
      const error = await caught(() => reviewSubmission(actor, approvedId, { action: "approve", reason: "looks fine to me" }));
      expect(error.code).toBe("forbidden");
    }
    expect((await db.submission.findUniqueOrThrow({ where: { id: approvedId } })).publication).toBe("PENDING");
    expect(await auditOf(approvedId)).toHaveLength(0);
  });

  it("a maintainer approves: PUBLISHED, and an audit row with actor, action and reason", async () => {
    const reason = "Method and code checked against the paper.";
    expect(await reviewSubmission(sessionActor(maintainer), approvedId, { action: "approve", reason })).toEqual({ submissionId: approvedId, action: "approve" });
    const row = await db.submission.findUniqueOrThrow({ where: { id: approvedId } });
    expect(row.publication).toBe("PUBLISHED");
    expect(row.publishedAt).not.toBeNull();
    const audit = await auditOf(approvedId);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actorId: maintainer.id, action: "submission.approve", targetType: "Submission", targetId: approvedId, reason });
    expect(audit[0]?.details).toMatchObject({ from: { publication: "PENDING", status: "SCORED" }, split: "test" });
    // What was vouched for: the fact sheet exactly as it stood at approval.
    expect((audit[0]?.details as { factSheet?: unknown }).factSheet).toEqual(row.factSheet);
    // Approving again is a conflict, not a second publication.
    expect((await caught(() => reviewSubmission(sessionActor(maintainer), approvedId, { action: "approve" }))).code).toBe("conflict");
  });

  it("a rejection needs a reason; the owner then sees it", async () => {
    await requestPublication(sessionActor(owner), rejectedId, { ...METHOD, factSheet: { ...METHOD.factSheet, systemName: "Closed Ranker" } });
    for (const input of [{ action: "reject" }, { action: "reject", reason: "no" }, { action: "reject", reason: "    " }]) {
      const error = await caught(() => reviewSubmission(sessionActor(maintainer), rejectedId, input));
      expect(error.code).toBe("validation");
      expect(error.message).toMatch(/reason/);
    }
    expect((await db.submission.findUniqueOrThrow({ where: { id: rejectedId } })).publication).toBe("PENDING");
    expect(await auditOf(rejectedId)).toHaveLength(0);

    const reason = "The method description does not say which external data was used.";
    await reviewSubmission(sessionActor(maintainer), rejectedId, { action: "reject", reason });
    const view = await getSubmissionView(sessionActor(owner), rejectedId);
    expect(view.publication).toBe("REJECTED");
    expect(view.reviewReason).toBe(reason);
    expect(view.isViewerOwner).toBe(true);
    expect(await auditOf(rejectedId)).toMatchObject([{ actorId: maintainer.id, action: "submission.reject", reason }]);
    // The owner may ask again after fixing it.
    await requestPublication(sessionActor(owner), rejectedId, { ...METHOD, factSheet: { ...METHOD.factSheet, systemName: "Closed Ranker", dataUsed: { ...METHOD.factSheet.dataUsed, details: "none" } } });
    expect((await getSubmissionView(sessionActor(owner), rejectedId)).publication).toBe("PENDING");
  });

  it("rescore re-queues it and the worker scores it again: new computedAt, same metrics", async () => {
    const before = await db.score.findUniqueOrThrow({ where: { submissionId: approvedId } });
    const rowBefore = await db.submission.findUniqueOrThrow({ where: { id: approvedId } });
    await reviewSubmission(sessionActor(maintainer), approvedId, { action: "rescore", reason: "scorer check" });
    // Re-queued (the running worker may already have taken it: no status check here).
    expect((await db.submission.findUniqueOrThrow({ where: { id: approvedId } })).queuedAt.getTime()).toBeGreaterThan(rowBefore.queuedAt.getTime());
    const rescoreJobs = (await getScoringQueue().getJobs(["waiting", "active", "completed"])).filter((job) => job.id?.startsWith(`${approvedId}-r`));
    expect(rescoreJobs).toHaveLength(1);

    const after = await waitFor(
      async () => {
        const row = await db.submission.findUniqueOrThrow({ where: { id: approvedId }, include: { score: true } });
        return row.status === "SCORED" && row.score && row.score.computedAt.getTime() !== before.computedAt.getTime() ? row : undefined;
      },
      () => "the rescored submission did not get a new score",
      { timeoutMs: 60_000, workers: worker ? [worker] : [] },
    );
    await waitForQueueIdle({ workers: worker ? [worker] : [] });
    expect(after.score?.computedAt.getTime()).toBeGreaterThan(before.computedAt.getTime());
    expect(after.score?.report).toEqual(before.report);
    expect(after.score?.primary).toBe(before.primary);
    expect(after.attempts).toBe(rowBefore.attempts + 1);
    expect(after.publication).toBe("PUBLISHED");
    expect(await auditOf(approvedId)).toMatchObject([{ action: "submission.approve" }, { action: "submission.rescore", reason: "scorer check" }]);
    const counts = await comparisonPairCounts([approvedId]);
    expect(counts.size).toBe(4);
    expect([...counts.values()].every((count) => count === 1)).toBe(true);
  });

  it("mark-baseline: every other scored entry of the split gets a comparison against it; unmark removes them", async () => {
    const baselinesBefore = await scoredBaselineIds(release.releaseId, "test");
    expect(baselinesBefore).toHaveLength(4);
    expect((await caught(() => reviewSubmission(sessionActor(participant), rejectedId, { action: "mark-baseline" }))).code).toBe("forbidden");

    await reviewSubmission(sessionActor(maintainer), rejectedId, { action: "mark-baseline", baselineLabel: "Community ranker", reason: "strong closed-track reference" });
    const marked = await db.submission.findUniqueOrThrow({ where: { id: rejectedId } });
    expect(marked).toMatchObject({ isBaseline: true, baselineLabel: "Community ranker" });
    expect(await auditOf(rejectedId)).toContainEqual(expect.objectContaining({ action: "submission.mark-baseline", actorId: maintainer.id }));

    const others = await db.submission.findMany({ where: { releaseId: release.releaseId, split: "test", status: "SCORED", NOT: { id: rejectedId } }, select: { id: true, isBaseline: true } });
    expect(others.length).toBe(5);
    const counts = await comparisonPairCounts(others.map((row) => row.id));
    for (const other of others) expect(counts.get(`${other.id}|${rejectedId}`), other.id).toBe(1);
    // The published entry is now compared with five baselines, Holm-adjusted across them.
    const rows = await db.comparison.findMany({ where: { entryId: approvedId, family: "unified" } });
    expect(rows).toHaveLength(5);
    for (const row of rows) expect(row.pHolm).toBeGreaterThanOrEqual(row.p);
    // The marked entry is compared with the four original baselines, not with itself.
    expect((await db.comparison.findMany({ where: { entryId: rejectedId, family: "unified" } })).map((row) => row.baselineId).sort()).toEqual([...baselinesBefore].sort());
    // Dev entries are untouched.
    expect(await db.comparison.count({ where: { entryId: devId, baselineId: rejectedId } })).toBe(0);
    // Published, its owner sees what the public sees (section 12): the verdicts are the entry page's (section 13), not the stored family.
    expect((await getSubmissionView(sessionActor(owner), approvedId)).comparisons).toEqual([]);
    const view = await getSubmissionView(sessionActor(maintainer), approvedId);
    expect(view.comparisons.map((comparison) => comparison.baselineLabel)).toContain("Community ranker");

    await reviewSubmission(sessionActor(maintainer), rejectedId, { action: "unmark-baseline", reason: "superseded" });
    expect(await db.comparison.count({ where: { baselineId: rejectedId } })).toBe(0);
    expect(await db.comparison.count({ where: { entryId: approvedId, family: "unified" } })).toBe(4);
  });
});
