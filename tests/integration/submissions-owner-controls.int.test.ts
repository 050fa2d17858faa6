import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicationRequest } from "@/testing/publication-request";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { db } from "@/lib/platform/db";
import { clearLeaderboardCache, getLeaderboard, setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import { getSharedRedis } from "@/lib/platform/redis";
import { listAuditLog } from "@/lib/domain/publication/list-review-queue";
import { listReviewRequests } from "@/lib/domain/publication/list-review-requests";
import { requestPublication } from "@/lib/domain/publication/request-publication";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { setEntryHidden } from "@/lib/domain/publication/set-entry-hidden";
import { setPrimaryEntry } from "@/lib/domain/publication/set-primary-entry";
import { withdrawPublicationRequest } from "@/lib/domain/publication/withdraw-publication-request";
import { caught } from "./support/errors";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * A participant's own controls over their entries: withdraw a
 * pending request, hide and show a published entry, choose one primary entry
 * per track, which the leaderboard's default view ranks alone. Every change is
 * in the audit log; nobody else can make it.
 */
let release: TestRelease;
let owner: TestUser;
let other: TestUser;
let maintainer: TestUser;
let worker: WorkerProcess | undefined;
let firstId = "";
let secondId = "";
let closedId = "";

const method = (systemName: string) => publicationRequest(systemName, { methodDescription: `${systemName}: a reranker over BM25 candidates, fine-tuned on train.` });

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  setLeaderboardStampTtl(0);
  release = await importSmallRelease(11);
  [owner, other, maintainer] = [await createTestUser({ label: "controls-owner", withoutPassword: true }), await createTestUser({ label: "controls-other", withoutPassword: true }), await createTestUser({ label: "controls-maintainer", role: "MAINTAINER", withoutPassword: true })];
  const baselineIds = (await runBaselines(release.releaseId)).map((result) => result.submissionId);
  firstId = (await submitLines(predictionLines(release, "test", "open", 0.6, 81), { userId: owner.id })).id;
  secondId = (await submitLines(predictionLines(release, "test", "open", 0.3, 82), { userId: owner.id })).id;
  closedId = (await submitLines(predictionLines(release, "test", "closed", 0.4, 83), { userId: owner.id })).id;
  worker = await startWorker({ WORKER_CONCURRENCY: "2" });
  await waitForAllSettled([...baselineIds, firstId, secondId, closedId], { timeoutMs: 100_000, workers: [worker] });
  for (const [id, name] of [[firstId, "Owner first"], [secondId, "Owner second"]] as const) {
    await requestPublication(sessionActor(owner), id, method(name));
    await reviewSubmission(sessionActor(maintainer), id, { action: "approve", reason: "Checked." });
  }
});

afterAll(async () => {
  setLeaderboardStampTtl(1000);
  clearLeaderboardCache();
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function actionsOf(submissionId: string): Promise<string[]> {
  const rows = await db.auditLog.findMany({ where: { targetId: submissionId }, orderBy: { createdAt: "asc" }, select: { action: true } });
  return rows.map((row) => row.action);
}

async function openEntries(scope: "primary" | "all"): Promise<string[]> {
  const snapshot = await getLeaderboard({ track: "open", scope });
  return (snapshot?.view.rows ?? []).filter((row) => row.kind === "submission").map((row) => row.system);
}

describe("primary entries", () => {
  it("without a choice, the default view ranks all of an owner's entries", async () => {
    expect((await openEntries("primary")).sort()).toEqual(["Owner first", "Owner second"]);
  });

  it("marking one primary leaves only it in the default view; 'all' still ranks both", async () => {
    expect(await setPrimaryEntry(sessionActor(owner), secondId, true)).toEqual({ isPrimary: true, replaced: null });
    expect(await openEntries("primary")).toEqual(["Owner second"]);
    expect((await openEntries("all")).sort()).toEqual(["Owner first", "Owner second"]);
    const rank = (await getLeaderboard({ track: "open", scope: "primary" }))?.view.rows.find((row) => row.system === "Owner second")?.rank;
    expect(rank).not.toBeNull();
  });

  it("one primary per owner and track: marking another moves the mark, also when two requests race", async () => {
    expect(await setPrimaryEntry(sessionActor(owner), firstId, true)).toEqual({ isPrimary: true, replaced: secondId });
    await Promise.all([setPrimaryEntry(sessionActor(owner), secondId, true), setPrimaryEntry(sessionActor(owner), firstId, true)]);
    const primaries = await db.submission.count({ where: { userId: owner.id, track: "open", isPrimary: true } });
    expect(primaries).toBe(1);
    await setPrimaryEntry(sessionActor(owner), firstId, true);
    expect(await openEntries("primary")).toEqual(["Owner first"]);
  });

  it("only the owner can choose, and only a published or pending test entry can be primary", async () => {
    expect((await caught(() => setPrimaryEntry(sessionActor(other), firstId, true))).code).toBe("not_found");
    expect((await caught(() => setPrimaryEntry(sessionActor(maintainer), firstId, true))).code).toBe("not_found");
    expect((await caught(() => setPrimaryEntry({ ...sessionActor(owner), via: "token" }, firstId, true))).code).toBe("forbidden");
    expect((await caught(() => setPrimaryEntry(sessionActor(owner), closedId, true))).code).toBe("conflict");
    expect(await actionsOf(secondId)).toContain("submission.set-primary");
  });
});

describe("hiding and showing a published entry", () => {
  it("the owner hides it: off the leaderboard, audit-logged; and shows it again", async () => {
    expect(await setEntryHidden(sessionActor(owner), secondId, true)).toEqual({ publication: "HIDDEN" });
    expect(await db.submission.findUniqueOrThrow({ where: { id: secondId }, select: { publication: true, hiddenByOwner: true } })).toEqual({ publication: "HIDDEN", hiddenByOwner: true });
    expect(await openEntries("all")).toEqual(["Owner first"]);
    expect(await setEntryHidden(sessionActor(owner), secondId, false)).toEqual({ publication: "PUBLISHED" });
    expect((await openEntries("all")).sort()).toEqual(["Owner first", "Owner second"]);
    expect((await actionsOf(secondId)).slice(-2)).toEqual(["submission.owner-hide", "submission.owner-unhide"]);
  });

  it("an entry a maintainer hid stays hidden until a maintainer publishes it again", async () => {
    await reviewSubmission(sessionActor(maintainer), secondId, { action: "hide", reason: "Duplicate of the first entry." });
    const refused = await caught(() => setEntryHidden(sessionActor(owner), secondId, false));
    expect(refused.code).toBe("forbidden");
    expect(refused.message).toMatch(/A maintainer hid this entry/);
    expect((await caught(() => setEntryHidden(sessionActor(other), firstId, true))).code).toBe("not_found");
    expect((await caught(() => setEntryHidden(sessionActor(owner), closedId, true))).code).toBe("conflict");
  });
});

describe("withdrawing a pending request", () => {
  it("makes the submission private again, keeps its metadata for the next request and when it was requested (the guard compares with it), and is audit-logged", async () => {
    await requestPublication(sessionActor(owner), closedId, method("Owner closed"));
    expect((await listReviewRequests(sessionActor(maintainer))).map((request) => request.view.id)).toEqual([closedId]);
    await withdrawPublicationRequest(sessionActor(owner), closedId);
    const row = await db.submission.findUniqueOrThrow({ where: { id: closedId } });
    expect(row).toMatchObject({ publication: "PRIVATE", systemName: "Owner closed" });
    expect(row.requestedAt).not.toBeNull();
    expect(await listReviewRequests(sessionActor(maintainer))).toEqual([]);
    expect(await actionsOf(closedId)).toEqual(["submission.withdraw"]);
    expect((await caught(() => withdrawPublicationRequest(sessionActor(owner), closedId))).code).toBe("conflict");
    expect((await caught(() => withdrawPublicationRequest(sessionActor(other), firstId))).code).toBe("not_found");
  });
});

describe("the maintainer's context", () => {
  it("a review request carries the method, the scores with intervals, the comparisons and the owner's other entries", async () => {
    await requestPublication(sessionActor(owner), closedId, method("Owner closed"));
    const [request] = await listReviewRequests(sessionActor(maintainer));
    expect(request?.view).toMatchObject({ id: closedId, methodDescription: method("Owner closed").methodDescription, ownerName: owner.displayName });
    expect(request?.view.score?.report.ci95).toHaveProperty("hit@1");
    expect(request?.view.comparisons.length).toBeGreaterThan(0);
    expect(request?.view.probe_flags).not.toBeUndefined();
    expect(request?.otherEntries.map((entry) => entry.id).sort()).toEqual([firstId, secondId].sort());
    expect(request?.otherEntries.find((entry) => entry.id === firstId)?.isPrimary).toBe(true);
    expect((await caught(() => listReviewRequests(sessionActor(owner)))).code).toBe("forbidden");
  });

  it("the audit log names the system and its owner, not the raw id", async () => {
    const rows = await listAuditLog(sessionActor(maintainer));
    const withdraw = rows.find((row) => row.action === "submission.withdraw");
    expect(withdraw?.target).toEqual({ type: "Submission", id: closedId, label: `Owner closed (closed-world test, by ${owner.displayName})`, href: `/submissions/${closedId}` });
    expect(withdraw?.actorName).toBe(owner.displayName);
  });
});
