import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicationRequest } from "@/testing/publication-request";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import { db } from "@/lib/platform/db";
import { readProbeFlags } from "@/lib/core/integrity/probe-flags-schema";
import { getSharedRedis } from "@/lib/platform/redis";
import { getSubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { listReviewQueue } from "@/lib/domain/publication/list-review-queue";
import { requestPublication } from "@/lib/domain/publication/request-publication";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { caught } from "./support/errors";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, samplesOf, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Protocol section 12 in review: the worker stores probe flags for every test
 * file; a flagged file is approved only after each raised flag is
 * acknowledged with a reason (audited); the flags are for maintainers only.
 * Baselines need the owner's consent and a label the maintainer types.
 */
let release: TestRelease;
let prober: TestUser;
let owner: TestUser;
let maintainer: TestUser;
let worker: WorkerProcess | undefined;
let probeId = "";
let flaggedId = "";
let honestId = "";
let privateId = "";
let devId = "";
let systemBaselineId = "";

const METHOD = publicationRequest("Single Guess", { methodDescription: "One entity per sample, chosen by a retriever trained on the train split." });

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(11);
  [prober, owner, maintainer] = [await createTestUser({ label: "probe-owner", withoutPassword: true }), await createTestUser({ label: "honest-owner", withoutPassword: true }), await createTestUser({ label: "integrity-maintainer", role: "MAINTAINER", withoutPassword: true })];
  const baselines = await runBaselines(release.releaseId);
  systemBaselineId = baselines.find((run) => run.key === "bm25-names" && run.split === "test")?.submissionId ?? "";
  // A probe: every test sample answered with a ranking of one train-split entity (never test gold).
  const trainQids = [...new Set(release.content.samples.train.map((sample) => sample.qid))];
  const probeLines = samplesOf(release, "test").map((sample, index) => JSON.stringify({ id: sample.id, ranking: [trainQids[index % trainQids.length]] }));
  probeId = (await submitLines(probeLines, { userId: prober.id, originalName: "probe.jsonl" })).id;
  // A flagged file the v1.3 guard lets through: single-entry rankings everywhere; in the two largest collections an entity
  // that can be a test gold (of no train or dev sample, not the sample's gold), elsewhere a train entity, so it differs
  // from the train-prior baseline in 106 samples, and the all-train collection Regional (33 >= min_group_n) is uninformative.
  const known = new Set([...release.content.samples.train, ...release.content.samples.dev].map((sample) => sample.qid));
  const pool = release.content.entities.map((entity) => entity.qid).filter((qid) => !known.has(qid));
  const informative = new Set(["Veterans", "Immigration"]);
  const flaggedLines = samplesOf(release, "test").map((sample, index) => {
    const poolPick = pool[index % pool.length] === sample.qid ? pool[(index + 1) % pool.length]! : pool[index % pool.length]!;
    return JSON.stringify({ id: sample.id, ranking: [informative.has(sample.collection) ? poolPick : trainQids[index % trainQids.length]] });
  });
  flaggedId = (await submitLines(flaggedLines, { userId: prober.id, originalName: "half-guess.jsonl" })).id;
  honestId = (await submitLines(predictionLines(release, "test", "closed", 0.45, 111), { userId: owner.id, originalName: "ranker-v3-final.jsonl" })).id;
  privateId = (await submitLines(predictionLines(release, "test", "open", 0.5, 112), { userId: owner.id, originalName: "open-private.jsonl" })).id;
  devId = (await submitLines(predictionLines(release, "dev", "open", 0.5, 113), { userId: owner.id })).id;
  worker = await startWorker({ WORKER_CONCURRENCY: "2" });
  await waitForAllSettled([...baselines.map((run) => run.submissionId), probeId, flaggedId, honestId, privateId, devId], { timeoutMs: 100_000, workers: [worker] });
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function storedFlags(submissionId: string) {
  const score = await db.score.findUniqueOrThrow({ where: { submissionId } });
  return { stored: score.probeFlags, flags: readProbeFlags(score.probeFlags) };
}

describe("probe flags", () => {
  it("the worker stores flags for test files: the probe raises both closed-world flags, an honest ranker none, dev files get none", async () => {
    const n = samplesOf(release, "test").length;
    const probe = await storedFlags(probeId);
    expect(probe.flags).toMatchObject({ version: 2, track: "closed", n });
    expect(probe.flags?.flags).toEqual([
      expect.objectContaining({ id: "single_entry_rankings", count: n, value: 1, threshold: 0.5, raised: true }),
      expect.objectContaining({ id: "top1_from_known_splits", count: n, value: 1, threshold: 0.9, raised: true }),
      // Every top a train entity: each answer type of at least min_group_n answers is known to score zero.
      expect.objectContaining({ id: "uninformative_groups", threshold: 0, raised: true }),
    ]);

    const honest = await storedFlags(honestId);
    expect(honest.flags?.flags.map((flag) => [flag.id, flag.raised])).toEqual([
      ["single_entry_rankings", false],
      ["top1_from_known_splits", false],
      ["uninformative_groups", false],
    ]);
    const open = await storedFlags(privateId);
    expect(open.flags?.flags.map((flag) => flag.id)).toEqual(["most_common_prediction", "many_names", "short_predictions", "uninformative_groups"]);
    expect(open.flags?.flags.every((flag) => !flag.raised)).toBe(true);

    expect((await storedFlags(devId)).stored).toBeNull();
  });

  it("maintainers see them in the view and the queue; the owner's view has no probe_flags at all", async () => {
    const ownView = await getSubmissionView(sessionActor(prober), probeId);
    expect("probe_flags" in ownView).toBe(false);
    expect(JSON.stringify(ownView)).not.toMatch(/single_entry_rankings|top1_from_known_splits/);
    const maintainerView = await getSubmissionView(sessionActor(maintainer), probeId);
    expect(maintainerView.probe_flags?.flags.filter((flag) => flag.raised).map((flag) => flag.id)).toEqual(["single_entry_rankings", "top1_from_known_splits", "uninformative_groups"]);
    const queue = await listReviewQueue(sessionActor(maintainer));
    expect(queue.recent.find((row) => row.id === probeId)?.probe_flags?.flags.some((flag) => flag.raised)).toBe(true);
  });

  it("the guard refuses the all-train probe: every answer that cannot be right is one answer, the train-prior baseline's (v1.3)", async () => {
    const refused = await caught(() => requestPublication(sessionActor(prober), probeId, METHOD));
    expect(refused.code).toBe("validation");
    expect(refused.message).toMatch(/too close to the baseline "Train-frequency prior/);
  });

  it("approving a flagged file needs every raised flag acknowledged and a reason; then it is published and audited", async () => {
    const flagged = await storedFlags(flaggedId);
    const raised = flagged.flags?.flags.filter((flag) => flag.raised).map((flag) => flag.id);
    expect(raised).toEqual(["single_entry_rankings", "uninformative_groups"]);
    await requestPublication(sessionActor(prober), flaggedId, METHOD);
    const none = await caught(() => reviewSubmission(sessionActor(maintainer), flaggedId, { action: "approve", reason: "Looks fine." }));
    expect(none.code).toBe("conflict");
    expect(none.message).toMatch(/single_entry_rankings/);
    expect(none.message).toMatch(/uninformative_groups/);

    const partial = await caught(() => reviewSubmission(sessionActor(maintainer), flaggedId, { action: "approve", reason: "Looks fine.", acknowledge: ["single_entry_rankings"] }));
    expect(partial.code).toBe("conflict");
    expect(partial.message).toMatch(/uninformative_groups/);
    expect(partial.message).not.toMatch(/single_entry_rankings \(/);

    const all = ["single_entry_rankings", "uninformative_groups"];
    const noReason = await caught(() => reviewSubmission(sessionActor(maintainer), flaggedId, { action: "approve", acknowledge: all }));
    expect(noReason.code).toBe("validation");
    expect(noReason.message).toMatch(/reason/);
    expect((await caught(() => reviewSubmission(sessionActor(maintainer), flaggedId, { action: "approve", reason: "ok", acknowledge: ["no_such_flag"] }))).code).toBe("validation");

    expect((await db.submission.findUniqueOrThrow({ where: { id: flaggedId } })).publication).toBe("PENDING");
    expect(await db.auditLog.count({ where: { targetId: flaggedId, action: { startsWith: "submission.approve" } } })).toBe(0);

    const reason = "The authors explained the single-entity output; checked against their code.";
    await reviewSubmission(sessionActor(maintainer), flaggedId, { action: "approve", reason, acknowledge: all });
    expect((await db.submission.findUniqueOrThrow({ where: { id: flaggedId } })).publication).toBe("PUBLISHED");
    const audit = await db.auditLog.findMany({ where: { targetId: flaggedId, action: "submission.approve" } });
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "submission.approve", actorId: maintainer.id, reason });
    expect(audit[0]?.details).toMatchObject({
      probeFlags: {
        acknowledged: all,
        raised: [{ id: "single_entry_rankings", value: 1, threshold: 0.5 }, { id: "uninformative_groups", threshold: 0 }],
      },
    });
  });

  it("a file with no raised flag is approved without acknowledgements", async () => {
    await requestPublication(sessionActor(owner), honestId, { ...METHOD, factSheet: { ...METHOD.factSheet, systemName: "Honest Ranker" } });
    await reviewSubmission(sessionActor(maintainer), honestId, { action: "approve" });
    expect((await db.submission.findUniqueOrThrow({ where: { id: honestId } })).publication).toBe("PUBLISHED");
    expect((await db.auditLog.findFirstOrThrow({ where: { targetId: honestId } })).details).toMatchObject({ probeFlags: { raised: [], acknowledged: [] } });
    // Put it back to pending for the baseline tests below.
    await db.submission.update({ where: { id: honestId }, data: { publication: "PENDING" } });
  });
});

describe("baselines with consent", () => {
  it("another participant's private submission cannot be marked as a baseline; nothing changes", async () => {
    const error = await caught(() => reviewSubmission(sessionActor(maintainer), privateId, { action: "mark-baseline", baselineLabel: "Open reference" }));
    expect(error.code).toBe("forbidden");
    expect(error.message).toMatch(/owner has not asked to publish it/);
    expect(await db.submission.findUniqueOrThrow({ where: { id: privateId } })).toMatchObject({ isBaseline: false, baselineLabel: null });
    expect((await getSubmissionView(sessionActor(owner), privateId)).visibility).toEqual({ isPublic: false, text: "Private: only you and the maintainers see it." });

    await db.submission.update({ where: { id: privateId }, data: { publication: "REJECTED" } });
    expect((await caught(() => reviewSubmission(sessionActor(maintainer), privateId, { action: "mark-baseline", baselineLabel: "Open reference" }))).message).toMatch(/rejected/);
    await db.submission.update({ where: { id: privateId }, data: { publication: "HIDDEN" } });
    expect((await caught(() => reviewSubmission(sessionActor(maintainer), privateId, { action: "mark-baseline", baselineLabel: "Open reference" }))).code).toBe("forbidden");
    expect(await db.auditLog.count({ where: { targetId: privateId } })).toBe(0);
  });

  it("a pending submission becomes a baseline only under a typed label, which is what its owner then sees", async () => {
    expect((await getSubmissionView(sessionActor(owner), honestId)).visibility.text).toBe(
      "Private until a maintainer approves your publication request; until then only you and the maintainers see it.",
    );
    for (const input of [{ action: "mark-baseline" }, { action: "mark-baseline", baselineLabel: "   " }, { action: "mark-baseline", baselineLabel: "x".repeat(81) }]) {
      const error = await caught(() => reviewSubmission(sessionActor(maintainer), honestId, input));
      expect(error.code).toBe("validation");
      expect(error.message).toMatch(/baselineLabel/);
    }
    expect((await db.submission.findUniqueOrThrow({ where: { id: honestId } })).isBaseline).toBe(false);

    await reviewSubmission(sessionActor(maintainer), honestId, { action: "mark-baseline", baselineLabel: "  Community ranker  ", reason: "strong reference" });
    const row = await db.submission.findUniqueOrThrow({ where: { id: honestId } });
    expect(row).toMatchObject({ isBaseline: true, baselineLabel: "Community ranker" });
    expect(row.baselineLabel).not.toBe(row.originalName);
    const view = await getSubmissionView(sessionActor(owner), honestId);
    expect(view.visibility).toEqual({ isPublic: true, text: 'Public as the baseline "Community ranker": anyone sees its scores, and entries are compared with it.' });
    expect((await db.auditLog.findFirstOrThrow({ where: { targetId: honestId, action: "submission.mark-baseline" } })).details).toMatchObject({
      baselineLabel: "Community ranker",
      consent: "publication requested",
    });
  });

  it("the system account's submission can be a baseline again after unmarking, under a new label", async () => {
    await reviewSubmission(sessionActor(maintainer), systemBaselineId, { action: "unmark-baseline", reason: "relabel" });
    await reviewSubmission(sessionActor(maintainer), systemBaselineId, { action: "mark-baseline", baselineLabel: "BM25 names" });
    expect(await db.submission.findUniqueOrThrow({ where: { id: systemBaselineId } })).toMatchObject({ isBaseline: true, baselineLabel: "BM25 names", publication: "PRIVATE" });
    expect((await db.auditLog.findFirstOrThrow({ where: { targetId: systemBaselineId, action: "submission.mark-baseline" } })).details).toMatchObject({ consent: "system account" });
  });
});
