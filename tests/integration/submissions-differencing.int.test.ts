import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { db } from "@/lib/platform/db";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import type { AppError } from "@/lib/core/errors";
import { toHttpStatus } from "@/lib/core/errors";
import { getSharedRedis } from "@/lib/platform/redis";
import { norm } from "@/lib/core/scoring/normalize";
import { isFeedbackEntity } from "@/lib/core/slices/slice-membership";
import { createSubmission } from "@/lib/domain/uploads/create-submission";
import { listReviewRequests } from "@/lib/domain/publication/list-review-requests";
import { processSubmission } from "@/lib/domain/scoring/process-submission";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { grantTestQuota } from "@/lib/domain/quotas/quota-ledger";
import { requestPublication } from "@/lib/domain/publication/request-publication";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { setEntryHidden } from "@/lib/domain/publication/set-entry-hidden";
import { withdrawPublicationRequest } from "@/lib/domain/publication/withdraw-publication-request";
import { assertTestServices } from "@/testing/local-database";
import { publicationRequest } from "@/testing/publication-request";
import { caught } from "./support/errors";
import { importSmallRelease, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { chargesOf, stageText, submitLines } from "./support/uploads";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Protocol §12: what two close test files could read is guarded when one of
 * them is to be published. A publication request is refused, naming the
 * entry it is too close to, when on the ranking slice its file differs from a
 * baseline or one of the account's entries (published, pending or hidden, any
 * track and version of the release name) in fewer than max(25, 1%) samples,
 * or in fewer than min_group_n within a collection or entity type where it
 * differs at all; an account has at most max_entries_per_account entries per
 * track and release name. At upload only a byte-identical file is refused.
 *
 * The release: the small synthetic one with nearly all its train samples
 * moved into the test split (over 1,100 test samples: the group rule
 * applies from 1,000 on),
 * renamed, its test samples in two collections (Alpha, the first half; Beta)
 * and min_group_n 5. Test submissions there need approved accounts.
 * The test computes slice membership from the test secret (as no participant
 * can) to aim each change at the ranking or the feedback slice. Answers name
 * Place entities (or Person ones) whose name is no other entity's name or
 * alias, or nonsense, which names nothing of the KB.
 */
const RELEASE_NAME = "irc-bench-guard";
const MIN_GROUP_N = 5;
const REQUIRED = 25;

let release: TestRelease;
let maintainer: TestUser;
let testIds: string[] = [];
/** Ranking-slice sample ids of Alpha and Beta, and feedback-slice ids, in gold order. */
const rankingAlpha: string[] = [];
const rankingBeta: string[] = [];
const feedback: string[] = [];
/** Entities of one type whose normalised name names them alone. */
let places: { qid: string; name: string }[] = [];
let persons: { qid: string; name: string }[] = [];
let baselineId = "";
/** These files answer whole collections with nonsense: their probe flag is acknowledged when a maintainer makes them public. */
const VOUCH = { acknowledge: ["uninformative_groups"], reason: "Synthetic files of the publication guard test." };

function withCollections(content: TestRelease["content"]): void {
  content.meta.name = RELEASE_NAME;
  content.meta.min_group_n = MIN_GROUP_N;
  // Whole entities move (splits are entity-level), so the splits stay disjoint; one entity stays in train (a split may not be empty).
  const kept = content.samples.train[0]?.qid;
  content.samples.test.push(...content.samples.train.filter((sample) => sample.qid !== kept));
  content.samples.train = content.samples.train.filter((sample) => sample.qid === kept);
  const half = Math.ceil(content.samples.test.length / 2);
  content.samples.test.forEach((sample, index) => {
    sample.collection = index < half ? "Alpha" : "Beta";
  });
}

function uniquelyNamed(type: string): { qid: string; name: string }[] {
  const named = new Map<string, number>();
  for (const entity of release.content.entities) {
    for (const text of new Set([entity.name, ...entity.aliases].map(norm))) named.set(text, (named.get(text) ?? 0) + 1);
  }
  return release.content.entities.filter((entity) => entity.type === type && named.get(norm(entity.name)) === 1).map(({ qid, name }) => ({ qid, name }));
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7, withCollections);
  maintainer = await createTestUser({ label: "guard-maintainer", role: "MAINTAINER", withoutPassword: true });
  expect(release.content.samples.test.length).toBeGreaterThanOrEqual(1000);
  testIds = release.content.samples.test.map((sample) => sample.id);
  const key = { secret: sliceSecretOf(getEnv()), sliceFamily: RELEASE_NAME, feedbackFraction: 0.25 };
  for (const sample of release.content.samples.test) {
    if (isFeedbackEntity(key, sample.qid)) feedback.push(sample.id);
    else (sample.collection === "Alpha" ? rankingAlpha : rankingBeta).push(sample.id);
  }
  expect(rankingAlpha.length).toBeGreaterThanOrEqual(300);
  expect(rankingBeta.length).toBeGreaterThanOrEqual(300);
  expect(feedback.length).toBeGreaterThanOrEqual(200);
  places = uniquelyNamed("Place");
  persons = uniquelyNamed("Person");
  expect(places.length).toBeGreaterThan(120);
  expect(persons.length).toBeGreaterThan(40);
  // A baseline a maintainer marked: Person names on 40 ranking samples of Beta, nonsense elsewhere.
  baselineId = await scored(openFile(named(rankingBeta.slice(40, 80), persons, 0)), maintainer);
  await reviewSubmission(sessionActor(maintainer), baselineId, { action: "mark-baseline", baselineLabel: "Guard persons", ...VOUCH });
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

type Answers = Map<string, string>;

/** Each sample id answered with a name of the pool, from `offset` on. */
function named(ids: readonly string[], pool: readonly { name: string }[], offset: number): Answers {
  return new Map(ids.map((id, index) => [id, pool[(offset + index) % pool.length]?.name ?? ""]));
}

function merge(...parts: Answers[]): Answers {
  return new Map(parts.flatMap((part) => [...part]));
}

/** An open-world test file: the answers given, nonsense (a fresh string each time) elsewhere. */
let nonsenseSalt = 0;
function openFile(answers: Answers): string[] {
  nonsenseSalt += 1;
  return testIds.map((id, index) => JSON.stringify({ id, prediction: answers.get(id) ?? `zzq${nonsenseSalt}x${index}` }));
}

/** Uploads and scores a file (the worker's own operation, in process); returns the submission id. */
async function scored(lines: readonly string[], user: TestUser): Promise<string> {
  const submission = await submitLines(lines, { userId: user.id });
  expect(await processSubmission(submission.id)).toBe("scored");
  return submission.id;
}

/** An approved participant (test submissions on a release of 1,000 test samples need one). */
async function participant(label: string): Promise<TestUser> {
  const user = await createTestUser({ label, withoutPassword: true });
  await db.user.update({ where: { id: user.id }, data: { approvedAt: new Date() } });
  return user;
}

/** A maintainer's grant, for accounts that upload more test files than a day's quota. */
async function grantQuota(user: TestUser, amount: number): Promise<void> {
  await db.$transaction((tx) => grantTestQuota({ userId: user.id, releaseId: release.releaseId, amount, reason: "guard test files", actorId: maintainer.id }, tx));
}

const request = (user: TestUser, id: string, name = `System ${id.slice(-6)}`) => requestPublication(sessionActor(user), id, publicationRequest(name));

async function publicationOf(id: string): Promise<string> {
  return (await db.submission.findUniqueOrThrow({ where: { id }, select: { publication: true } })).publication;
}

function expectNoSampleId(error: AppError): void {
  for (const id of testIds) expect(error.message).not.toContain(id);
}

describe("the publication guard (protocol §12)", () => {
  let owner: TestUser;
  let publishedId = "";
  let pendingId = "";
  /** The owner's published file: Place names on 40 ranking samples of Alpha. */
  const first = () => named(rankingAlpha.slice(0, 40), places, 0);

  beforeAll(async () => {
    owner = await participant("guard-owner");
    await grantQuota(owner, 10);
    publishedId = await scored(openFile(first()), owner);
    await request(owner, publishedId, "Guard first");
    await reviewSubmission(sessionActor(maintainer), publishedId, { action: "approve", ...VOUCH });
    expect(await publicationOf(publishedId)).toBe("PUBLISHED");
  });

  it("a near-copy of the account's published entry is refused at publication, naming it and no sample; feedback-slice changes do not count", async () => {
    // 10 ranking-slice changes, 50 feedback-slice ones: 60 samples differ, 10 of them on the ranking slice.
    const nearCopy = merge(first(), named(rankingAlpha.slice(40, 50), places, 100), named(feedback.slice(0, 50), places, 50));
    const id = await scored(openFile(nearCopy), owner);
    const error = await caught(() => request(owner, id));
    expect(toHttpStatus(error)).toBe(422);
    expect(error.message).toContain(`This file is too close to your entry "Guard first" (${publishedId}, open-world, published, ${RELEASE_NAME} `);
    expect(error.message).toContain(`against it, fewer than ${REQUIRED} of those samples differ`);
    expect(error.message).not.toMatch(/\b10\b|\b60\b/);
    expectNoSampleId(error);
    expect(await publicationOf(id)).toBe("PRIVATE");
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "submission.publication-refused", targetId: id } });
    expect(audit.details).toMatchObject({ refusal: "too-close", tooCloseTo: publishedId, rule: "overall", rankingSamplesDiffering: 10 });
  });

  it("enough samples overall but fewer than min_group_n within a collection where it differs is refused, naming the collection", async () => {
    const file = merge(first(), named(rankingAlpha.slice(40, 70), places, 100), named(rankingBeta.slice(0, 2), places, 140));
    const id = await scored(openFile(file), owner);
    const error = await caught(() => request(owner, id));
    expect(error.message).toContain(`too close to your entry "Guard first" (${publishedId}`);
    expect(error.message).toContain(`the collection "Beta" differs in some of those samples but fewer than ${MIN_GROUP_N}`);
    expectNoSampleId(error);
  });

  it("enough samples overall but fewer than min_group_n among answers naming one entity type is refused, naming the type", async () => {
    const file = merge(first(), named(rankingAlpha.slice(40, 70), places, 100), named(rankingAlpha.slice(70, 72), persons, 60));
    const id = await scored(openFile(file), owner);
    const error = await caught(() => request(owner, id));
    expect(error.message).toContain(`the answers naming entities of type Person differ in some of those samples but fewer than ${MIN_GROUP_N}`);
  });

  it("a file far enough from every entry and baseline is accepted; then a near-copy of that pending entry is refused, naming it", async () => {
    pendingId = await scored(openFile(merge(first(), named(rankingAlpha.slice(40, 70), places, 100))), owner);
    await request(owner, pendingId, "Guard second");
    expect(await publicationOf(pendingId)).toBe("PENDING");
    // Three more samples of Alpha: far enough from the published entry (33 differ), too close to the pending one.
    const nearPending = merge(first(), named(rankingAlpha.slice(40, 75), places, 100));
    const id = await scored(openFile(nearPending), owner);
    const error = await caught(() => request(owner, id));
    expect(error.message).toContain(`too close to your entry "Guard second" (${pendingId}, open-world, pending`);
  });

  it("a file whose request was withdrawn, or rejected, still counts: a near-copy of it is refused, naming it", async () => {
    const user = await participant("guard-history");
    await grantQuota(user, 5);
    // A: Place names on 60 ranking samples of Alpha (far from the baseline); B: A with 24 more (one fewer than the guard's 25) and 30 feedback-slice ones.
    const a = named(rankingAlpha.slice(100, 160), places, 30);
    const aId = await scored(openFile(a), user);
    await request(user, aId, "Guard withdrawn");
    await withdrawPublicationRequest(sessionActor(user), aId);
    expect(await publicationOf(aId)).toBe("PRIVATE");
    const bId = await scored(openFile(merge(a, named(rankingAlpha.slice(160, 184), places, 90), named(feedback.slice(100, 130), places, 90))), user);
    const afterWithdrawal = await caught(() => request(user, bId));
    expect(toHttpStatus(afterWithdrawal)).toBe(422);
    expect(afterWithdrawal.message).toContain(`This file is too close to your entry "Guard withdrawn" (${aId}, open-world, request withdrawn, ${RELEASE_NAME} `);
    expect(afterWithdrawal.message).toContain(`against it, fewer than ${REQUIRED} of those samples differ`);
    expect(await publicationOf(bId)).toBe("PRIVATE");
    // 25 ranking-slice samples apart (publicationDistance's boundary): accepted.
    const farId = await scored(openFile(merge(a, named(rankingAlpha.slice(160, 185), places, 90))), user);
    await request(user, farId, "Guard far enough");
    expect(await publicationOf(farId)).toBe("PENDING");

    const c = named(rankingAlpha.slice(200, 260), places, 60);
    const cId = await scored(openFile(c), user);
    await request(user, cId, "Guard rejected");
    await reviewSubmission(sessionActor(maintainer), cId, { action: "reject", reason: "Not a method." });
    const dId = await scored(openFile(merge(c, named(rankingAlpha.slice(260, 270), places, 95))), user);
    const afterRejection = await caught(() => request(user, dId));
    expect(afterRejection.message).toContain(`This file is too close to your entry "Guard rejected" (${cId}, open-world, rejected, ${RELEASE_NAME} `);
  });

  it("a near-copy of a baseline is refused, naming the baseline", async () => {
    const copier = await participant("guard-copier");
    const id = await scored(openFile(merge(named(rankingBeta.slice(40, 80), persons, 0), named(rankingAlpha.slice(0, 8), places, 7))), copier);
    const error = await caught(() => request(copier, id));
    expect(error.message).toContain(`This file is too close to the baseline "Guard persons" (${baselineId}, open-world, ${RELEASE_NAME} `);
    expect(error.message).toContain("fewer than 25 of those samples differ");
  });

  it("the cross-track case: a closed top-1 naming the entity of an open answer is the same answer, whatever the rest of the ranking", async () => {
    const user = await participant("guard-cross");
    // Every sample named: Place names everywhere (the open file), the same entities on top of the rankings (the closed one).
    const openId = await scored(openFile(named(testIds, places, 3)), user);
    await request(user, openId, "Guard open");
    const rankings = testIds.map((id, index) => {
      const changed = rankingAlpha.slice(0, 10).includes(id);
      const top = places[(3 + index + (changed ? 1 : 0)) % places.length]?.qid ?? "";
      // Places 2 and 3 differ from sample to sample: only the top counts in the unified view.
      const tail = [places[(index * 7 + 11) % places.length]?.qid ?? "", persons[index % persons.length]?.qid ?? ""].filter((qid) => qid !== top);
      return JSON.stringify({ id, ranking: [top, ...tail] });
    });
    const closedId = await scored(rankings, user);
    const error = await caught(() => request(user, closedId));
    expect(error.message).toContain(`too close to your entry "Guard open" (${openId}, open-world, pending`);
    expect(error.message).toContain(`fewer than ${REQUIRED} of those samples differ`);
  });

  it("the maintainer's review shows the request's entries against the cap and another account's copy of its file within the guard's distance, with a link", async () => {
    const copier = await participant("guard-second-account");
    const pending = merge(first(), named(rankingAlpha.slice(40, 70), places, 100));
    // The pending entry's answers with 24 ranking-slice samples changed (one fewer than the guard's 25) and 30 feedback-slice ones:
    // a second account of the same person, say. 54 samples of the whole split differ; the ranking slice's count decides.
    const copyId = (await submitLines(openFile(merge(pending, named(rankingBeta.slice(100, 124), places, 9), named(feedback.slice(0, 30), places, 9))), { userId: copier.id }))
      .id;
    // 25 ranking-slice samples changed: as far as the guard asks, not listed.
    const farId = (await submitLines(openFile(merge(pending, named(rankingBeta.slice(100, 125), places, 9))), { userId: (await participant("guard-third-account")).id })).id;
    const requests = await listReviewRequests(sessionActor(maintainer));
    const card = requests.find((candidate) => candidate.view.id === pendingId);
    if (!card) throw new Error("the pending request is not in the review");
    expect(card.closeFilesRequired).toBe(REQUIRED);
    expect(card.closeFiles.map((file) => file.id)).toContain(copyId);
    expect(card.closeFiles.map((file) => file.id)).not.toContain(farId);
    const copy = card.closeFiles.find((file) => file.id === copyId);
    expect(copy).toMatchObject({ ownerName: copier.displayName, differing: 24, track: "open" });
    // Files of the owner never appear as another account's copy; unrelated files do not either.
    expect(card.closeFiles.map((file) => file.id)).not.toContain(publishedId);
    expect(card.closeFiles.map((file) => file.id)).not.toContain(baselineId);
    const open = card.entries.byTrack.find((group) => group.track === "open");
    expect(card.entries.max).toBe(3);
    expect(open?.entries.map((entry) => entry.id).sort()).toEqual([publishedId, pendingId].sort());
  });
});

describe("the entries cap (protocol §12)", () => {
  it(`at most 3 published or pending entries per account, track and release name: withdrawing frees a place, hiding does not, and it spans versions`, async () => {
    const user = await participant("guard-cap");
    await grantQuota(user, 5);
    // Files far apart: Place names everywhere, a different name in every sample from one file to the next.
    const files: string[] = [];
    for (let k = 0; k < 5; k += 1) files.push(await scored(openFile(named(testIds, places, 200 + k)), user));
    const [a, b, c, d, e] = files as [string, string, string, string, string];
    await request(user, a);
    await request(user, b);
    await request(user, c);
    const full = await caught(() => request(user, d));
    expect(toHttpStatus(full)).toBe(409);
    expect(full.message).toContain(`You already have 3 published or pending entries on the open-world track of ${RELEASE_NAME} (all versions together)`);
    expect(full.message).toContain(a);
    expect(full.message).toContain("An account may have at most 3 there (protocol §12). Withdrawing a pending request frees its place; hiding a published entry does not.");

    await withdrawPublicationRequest(sessionActor(user), c);
    await request(user, d);
    expect(await publicationOf(d)).toBe("PENDING");

    await reviewSubmission(sessionActor(maintainer), a, { action: "approve", ...VOUCH });
    await setEntryHidden(sessionActor(user), a, true);
    expect(await publicationOf(a)).toBe("HIDDEN");
    expect((await caught(() => request(user, e))).message).toContain("You already have 3 published or pending entries");

    // The closed-world track has its own places.
    const closedId = await scored(
      testIds.map((id, index) => JSON.stringify({ id, ranking: [persons[index % persons.length]?.qid ?? ""] })),
      user,
    );
    await request(user, closedId);
    expect(await publicationOf(closedId)).toBe("PENDING");

    // A new version of the release name: the same account's entries on the old one still count.
    const next = await importSmallRelease(7, (content) => {
      withCollections(content);
      content.meta.version = "2.0-guard";
    });
    const onNext = await submitLines(openFile(named(testIds, places, 77)), { userId: user.id });
    expect(onNext.releaseId).toBe(next.releaseId);
    expect(await processSubmission(onNext.id)).toBe("scored");
    expect((await caught(() => request(user, onNext.id))).message).toContain(`You already have 3 published or pending entries on the open-world track of ${RELEASE_NAME}`);
  });
});

describe("at upload (protocol §12)", () => {
  async function stateOf(user: TestUser) {
    const [submissions, quota] = await Promise.all([db.submission.count({ where: { userId: user.id } }), getTestQuota(user.id, release.releaseId)]);
    return { submissions, usedTotal: quota.usedTotal };
  }

  // The cap test made a second version active; uploads here go to the first.
  const upload = async (lines: readonly string[], user: TestUser) =>
    createSubmission({ userId: user.id, staged: await stageText(toJsonl(lines)), originalName: "predictions.jsonl", releaseId: release.releaseId });

  it("a byte-identical re-upload is refused before queueing, naming the earlier submission, at no cost", async () => {
    const user = await participant("guard-identical");
    const lines = openFile(named(rankingAlpha.slice(0, 30), places, 5));
    const earlier = await upload(lines, user);
    const before = await stateOf(user);
    const error = await caught(() => upload(lines, user));
    expect(toHttpStatus(error)).toBe(422);
    expect(error.message).toContain(`This file is identical to your submission ${earlier.id} (uploaded `);
    expect(error.message).toContain("Nothing was stored and it cost no quota.");
    expect(await stateOf(user)).toEqual(before);
  });

  it("a near-duplicate (one answer changed) is accepted at upload and counts against the quota", async () => {
    const user = await participant("guard-near");
    const answers = named(rankingAlpha.slice(0, 30), places, 5);
    await upload(openFile(answers), user);
    answers.set(rankingAlpha[0] ?? "", places[90]?.name ?? "");
    const second = await upload(openFile(answers), user);
    expect(await chargesOf(second.id)).toBe(1);
    expect((await stateOf(user)).usedTotal).toBe(2);
  });

  it("two concurrent uploads of one file: exactly one is accepted (the account's lock)", async () => {
    const user = await participant("guard-race");
    const text = toJsonl(openFile(named(rankingBeta.slice(0, 30), places, 8)));
    const staged = await Promise.all([stageText(text), stageText(text)]);
    const settled = await Promise.allSettled(
      staged.map((file) => createSubmission({ userId: user.id, staged: file, originalName: "race.jsonl", releaseId: release.releaseId })),
    );
    expect(settled.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    expect((await getTestQuota(user.id, release.releaseId)).usedTotal).toBe(1);
  });

  it("another account may upload the same file, and dev files are never refused", async () => {
    const lines = openFile(named(rankingBeta.slice(0, 30), places, 12));
    await upload(lines, await participant("guard-a"));
    expect((await upload(lines, await participant("guard-b"))).split).toBe("test");
    const user = await participant("guard-dev");
    const dev = release.content.samples.dev.map((sample) => JSON.stringify({ id: sample.id, prediction: "zzq" }));
    const devUpload = async () => createSubmission({ userId: user.id, staged: await stageText(toJsonl(dev)), originalName: "dev.jsonl", releaseId: release.releaseId });
    await devUpload();
    await devUpload();
    expect(await db.submission.count({ where: { userId: user.id, split: "dev" } })).toBe(2);
  });
});
