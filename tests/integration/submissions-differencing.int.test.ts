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
import { changeBudgetGroup } from "@/lib/domain/accounts/change-budget-group";
import { getDisclosureLedger } from "@/lib/domain/publication/get-disclosure-ledger";
import { publicationThresholds } from "@/lib/core/integrity/answer-digests";
import { assertTestServices } from "@/testing/local-database";
import { publicationRequest } from "@/testing/publication-request";
import { caught } from "./support/errors";
import { importSmallRelease, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { chargesOf, stageText, submitLines } from "./support/uploads";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Protocol §12 (v1.3): what two close test files could read is guarded when
 * one of them is to be published. A publication request is refused, naming
 * the entry or request it is too close to and nothing else, when its file
 * differs from any baseline, or any entry or publication request of the
 * release name of any account (published, pending, hidden, rejected,
 * withdrawn or refused; any track and version), in fewer than
 * ceil(max(25, 1% of the test split) / (1 - f)) samples of the whole split, or
 * in fewer than ceil(min_group_n / (1 - f)) within a collection where it
 * differs at all; answers that cannot be right on the test split (train or
 * dev entities, nothing of the KB) are one answer. An account, or a budget
 * group of accounts, has at most max_entries_per_account entries per track
 * and release name. At upload only a byte-identical file is refused.
 *
 * The release: the small synthetic one with nearly all its train samples
 * moved into the test split (over 1,100 test samples: the collection rule
 * and the comparison with other accounts apply from 1,000 on), renamed, its
 * test samples in two collections (Alpha, the first half; Beta) and
 * min_group_n 5. Test submissions there need approved accounts. The test
 * computes slice membership from the test secret (as no participant can) only
 * to show that the guard's answer does not depend on it. Answers name
 * entities that could be test gold (not train or dev ones) whose name is no
 * other entity's name or alias, or nonsense, which names nothing of the KB.
 */
const RELEASE_NAME = "irc-bench-guard";
const MIN_GROUP_N = 5;
/** ceil(max(25, 1% of ~1,130) / 0.75) and ceil(5 / 0.75): set in beforeAll from the release's size. */
let REQUIRED = 0;
let PER_COLLECTION = 0;

let release: TestRelease;
let maintainer: TestUser;
let testIds: string[] = [];
/** Sample ids of Alpha and Beta (whole collections), their ranking-slice ids, and feedback-slice ids, in test.jsonl order. */
const alpha: string[] = [];
const beta: string[] = [];
const rankingAlpha: string[] = [];
const rankingBeta: string[] = [];
const feedback: string[] = [];
/** Entities of one type whose normalised name names them alone and that could be test gold. */
let places: { qid: string; name: string }[] = [];
let persons: { qid: string; name: string }[] = [];
/** Uniquely named train and dev golds: answers that cannot be right on the test split. */
let knownWrong: { qid: string; name: string }[] = [];
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

function uniquelyNamed(type: string | null, isKnown: boolean): { qid: string; name: string }[] {
  const named = new Map<string, number>();
  for (const entity of release.content.entities) {
    for (const text of new Set([entity.name, ...entity.aliases].map(norm))) named.set(text, (named.get(text) ?? 0) + 1);
  }
  const known = new Set([...release.content.samples.train, ...release.content.samples.dev].map((sample) => sample.qid));
  return release.content.entities
    .filter((entity) => (type === null || entity.type === type) && named.get(norm(entity.name)) === 1 && known.has(entity.qid) === isKnown)
    .map(({ qid, name }) => ({ qid, name }));
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
    (sample.collection === "Alpha" ? alpha : beta).push(sample.id);
    if (isFeedbackEntity(key, sample.qid)) feedback.push(sample.id);
    else (sample.collection === "Alpha" ? rankingAlpha : rankingBeta).push(sample.id);
  }
  ({ overall: REQUIRED, perCollection: PER_COLLECTION } = publicationThresholds({ testSamples: testIds.length, feedbackFraction: 0.25, minGroupN: MIN_GROUP_N }));
  expect([REQUIRED, PER_COLLECTION]).toEqual([34, 7]);
  expect(rankingAlpha.length).toBeGreaterThanOrEqual(200);
  expect(feedback.length).toBeGreaterThanOrEqual(100);
  places = uniquelyNamed("Place", false);
  persons = uniquelyNamed("Person", false);
  knownWrong = uniquelyNamed(null, true);
  expect(places.length).toBeGreaterThan(120);
  expect(persons.length).toBeGreaterThan(40);
  expect(knownWrong.length).toBeGreaterThanOrEqual(2);
  // A baseline a maintainer marked: Person names on 40 samples of Beta, nonsense elsewhere.
  baselineId = await scored(openFile(named(beta.slice(40, 80), persons, 0)), maintainer);
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

describe("the publication guard (protocol §12, v1.3)", () => {
  let owner: TestUser;
  let publishedId = "";
  let pendingId = "";
  /** The owner's published file: Place names on 60 samples of Alpha. */
  const first = () => named(alpha.slice(0, 60), places, 0);

  beforeAll(async () => {
    owner = await participant("guard-owner");
    await grantQuota(owner, 10);
    publishedId = await scored(openFile(first()), owner);
    await request(owner, publishedId, "Guard first");
    await reviewSubmission(sessionActor(maintainer), publishedId, { action: "approve", ...VOUCH });
    expect(await publicationOf(publishedId)).toBe("PUBLISHED");
  });

  it("a near-copy of the account's entry is refused, naming it and nothing else; the refused request is kept and later requests are compared with it", async () => {
    const nearCopy = merge(first(), named(alpha.slice(60, 60 + REQUIRED - 1), places, 100));
    const id = await scored(openFile(nearCopy), owner);
    const error = await caught(() => request(owner, id));
    expect(toHttpStatus(error)).toBe(422);
    expect(error.message).toContain(`This file is too close to your entry "Guard first" (${publishedId}, open-world, published, ${RELEASE_NAME} `);
    expect(error.message).toContain(`in at least ${REQUIRED} samples of the test split, and in at least ${PER_COLLECTION} samples of any collection where it differs at all`);
    expect(error.message).not.toMatch(/Alpha|Beta|\b33\b/);
    expectNoSampleId(error);
    expect(await publicationOf(id)).toBe("PRIVATE");
    expect(await db.publicationRefusal.findMany({ where: { submissionId: id }, select: { reason: true, tooCloseToId: true, userId: true } })).toEqual([
      { reason: "TOO_CLOSE", tooCloseToId: publishedId, userId: owner.id },
    ]);
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "submission.publication-refused", targetId: id } });
    expect(audit.details).toMatchObject({ refusal: "too-close", tooCloseTo: publishedId, rule: "overall", samplesDiffering: REQUIRED - 1 });

    // One sample more: far enough from the published entry, but one sample from the refused request, which the history keeps.
    const nextId = await scored(openFile(merge(first(), named(alpha.slice(60, 60 + REQUIRED), places, 100))), owner);
    const again = await caught(() => request(owner, nextId));
    // A refused request keeps no fact sheet: it is named by its file name.
    expect(again.message).toContain(`This file is too close to your entry "predictions.jsonl" (${id}, open-world, request withdrawn or refused, ${RELEASE_NAME} `);

    // Other samples, far from both: accepted.
    pendingId = await scored(openFile(merge(first(), named(alpha.slice(120, 120 + REQUIRED), places, 50))), owner);
    await request(owner, pendingId, "Guard second");
    expect(await publicationOf(pendingId)).toBe("PENDING");
  });

  it("a near-copy of another account's file is refused: a request by its id, a published entry by its name", async () => {
    const author = await participant("guard-author");
    const copier = await participant("guard-copier");
    await grantQuota(copier, 5);
    const original = named(beta.slice(100, 160), places, 20);
    const originalId = await scored(openFile(original), author);
    await request(author, originalId, "Guard author's system");
    const copyId = await scored(openFile(merge(original, named(beta.slice(160, 165), places, 90))), copier);
    const pending = await caught(() => request(copier, copyId));
    expect(toHttpStatus(pending)).toBe(422);
    expect(pending.message).toContain(`This file is too close to a publication request of another account (${originalId}, open-world, ${RELEASE_NAME} `);
    expect(pending.message).not.toContain("Guard author's system");
    await reviewSubmission(sessionActor(maintainer), originalId, { action: "approve", ...VOUCH });
    const secondCopyId = await scored(openFile(merge(original, named(beta.slice(160, 166), places, 91))), copier);
    const published = await caught(() => request(copier, secondCopyId));
    expect(published.message).toContain(`This file is too close to the published entry "Guard author's system" (${originalId}, open-world, ${RELEASE_NAME} `);
    expect(published.message).toContain("of another account");
  });

  it("swapping answers that cannot be right (train or dev entities, nonsense) for one another is no difference", async () => {
    const user = await participant("guard-swapper");
    await grantQuota(user, 3);
    const real = named(alpha.slice(200, 260), places, 40);
    const wrongBlock = beta.slice(200, 300);
    const [wrongA, wrongB] = [knownWrong[0]?.name ?? "", knownWrong[1]?.name ?? ""];
    const firstId = await scored(openFile(merge(real, new Map(wrongBlock.map((id) => [id, wrongA])))), user);
    await request(user, firstId, "Guard real");
    expect(await publicationOf(firstId)).toBe("PENDING");
    // 100 answers changed in the file: every one from a known-wrong entity to another known-wrong entity or to nonsense.
    const swapped = new Map(wrongBlock.map((id, index) => [id, index % 2 === 0 ? wrongB : `zzq-wrong-${index}`]));
    const swappedId = await scored(openFile(merge(real, swapped)), user);
    const error = await caught(() => request(user, swappedId));
    expect(error.message).toContain(`This file is too close to your entry "Guard real" (${firstId}, open-world, pending`);
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "submission.publication-refused", targetId: swappedId } });
    expect(audit.details).toMatchObject({ rule: "overall", samplesDiffering: 0 });
  });

  it("the cross-track case: a closed top-1 naming the entity of an open answer is the same answer, whatever the rest of the ranking", async () => {
    const user = await participant("guard-cross");
    const openId = await scored(openFile(named(testIds, places, 3)), user);
    await request(user, openId, "Guard open");
    const changed = new Set(alpha.slice(0, 10));
    const rankings = testIds.map((id, index) => {
      const top = places[(3 + index + (changed.has(id) ? 1 : 0)) % places.length]?.qid ?? "";
      // Places 2 and 3 differ from sample to sample: only the top counts in the unified view.
      const tail = [places[(index * 7 + 11) % places.length]?.qid ?? "", persons[index % persons.length]?.qid ?? ""].filter((qid) => qid !== top);
      return JSON.stringify({ id, ranking: [top, ...tail] });
    });
    const closedId = await scored(rankings, user);
    const error = await caught(() => request(user, closedId));
    expect(error.message).toContain(`too close to your entry "Guard open" (${openId}, open-world, pending`);
  });

  it("the maintainer's review lists another account's upload within the guard's distance, and the ledger counts what each account spent", async () => {
    const pending = merge(first(), named(alpha.slice(120, 120 + REQUIRED), places, 50));
    const copier = await participant("guard-second-account");
    const copyId = (await submitLines(openFile(merge(pending, named(beta.slice(300, 300 + REQUIRED - 1), places, 9))), { userId: copier.id })).id;
    const farId = (await submitLines(openFile(merge(pending, named(beta.slice(300, 300 + REQUIRED), places, 9))), { userId: (await participant("guard-third-account")).id })).id;
    const requests = await listReviewRequests(sessionActor(maintainer));
    const card = requests.find((candidate) => candidate.view.id === pendingId);
    if (!card) throw new Error("the pending request is not in the review");
    expect(card.closeFilesRequired).toBe(REQUIRED);
    expect(card.closeFiles.map((file) => file.id)).toContain(copyId);
    expect(card.closeFiles.map((file) => file.id)).not.toContain(farId);
    expect(card.closeFiles.find((file) => file.id === copyId)).toMatchObject({ ownerName: copier.displayName, differing: REQUIRED - 1, track: "open" });

    const [ledger] = await getDisclosureLedger({ actor: sessionActor(maintainer), userId: owner.id, releaseName: RELEASE_NAME });
    expect(ledger?.rows).toEqual([
      expect.objectContaining({ userId: owner.id, testUploads: 4, requestsAccepted: 2, requestsRefused: 2, requestsWithdrawn: 0, published: 1, hidden: 0, nearCopies: 2 }),
    ]);
    const [all] = await getDisclosureLedger({ actor: sessionActor(maintainer), releaseName: RELEASE_NAME });
    expect(all?.totals.testUploads).toBe(all?.rows.reduce((sum, row) => sum + row.testUploads, 0));
    expect(all?.rows[0]?.testUploads).toBeGreaterThanOrEqual(all?.rows.at(-1)?.testUploads ?? 0);
    await expect(getDisclosureLedger({ actor: sessionActor(owner) })).rejects.toThrow();
  });
});

describe("a budget group of accounts (protocol §12)", () => {
  it("a maintainer links approved accounts of one lab: they share one entries cap, audited; withdrawing frees a place; unlinking separates them", async () => {
    const [labA, labB] = [await participant("guard-lab-a"), await participant("guard-lab-b")];
    await Promise.all([grantQuota(labA, 5), grantQuota(labB, 5)]);
    const linked = await changeBudgetGroup({ actor: sessionActor(maintainer), userId: labA.id, change: { action: "link", account: labB.email, reason: "One lab, two accounts." } });
    expect(linked.members.map((member) => member.id).sort()).toEqual([labA.id, labB.id].sort());
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "user.budget-linked", targetId: labA.id } });
    expect(audit).toMatchObject({ actorId: maintainer.id, reason: "One lab, two accounts." });
    const unapproved = await createTestUser({ label: "guard-lab-unapproved", withoutPassword: true });
    const refused = await caught(() => changeBudgetGroup({ actor: sessionActor(maintainer), userId: labA.id, change: { action: "link", account: unapproved.email, reason: "x" } }));
    expect(toHttpStatus(refused)).toBe(422);
    await expect(changeBudgetGroup({ actor: sessionActor(labA), userId: labA.id, change: { action: "unlink", reason: "x" } })).rejects.toThrow();

    const far = async (user: TestUser, offset: number) => scored(openFile(named(testIds, places, offset)), user);
    const a1 = await far(labA, 300);
    const a2 = await far(labA, 301);
    const b1 = await far(labB, 302);
    const b2 = await far(labB, 303);
    await request(labA, a1);
    await request(labA, a2);
    await request(labB, b1);
    const full = await caught(() => request(labB, b2));
    expect(toHttpStatus(full)).toBe(409);
    expect(full.message).toContain(`The accounts that share your entries budget already have 3 published or pending entries on the open-world track of ${RELEASE_NAME}`);
    expect(full.message).toContain(a1);
    expect(await db.publicationRefusal.count({ where: { submissionId: b2, reason: "ENTRIES_CAP" } })).toBe(1);

    await withdrawPublicationRequest(sessionActor(labA), a2);
    await request(labB, b2);
    expect(await publicationOf(b2)).toBe("PENDING");

    await changeBudgetGroup({ actor: sessionActor(maintainer), userId: labB.id, change: { action: "unlink", reason: "Two labs after all." } });
    expect(await db.user.findUniqueOrThrow({ where: { id: labA.id }, select: { budgetGroupId: true } })).toEqual({ budgetGroupId: null });
    const a3 = await far(labA, 304);
    await request(labA, a3);
    expect(await publicationOf(a3)).toBe("PENDING");
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

/**
 * Last: the probes' refused requests stay in the history and are compared
 * with every later request, so no other test's file may come after them.
 */
describe("the guard is no membership oracle (protocol §12, v1.3)", () => {
  it("the membership oracle is closed: one sample changed in a collection, whichever collection and slice, gets the same refusal and status as one changed anywhere", async () => {
    const prober = await participant("guard-prober");
    await grantQuota(prober, 10);
    const baseline = named(beta.slice(40, 80), persons, 0);
    /** The baseline's answers, every sample outside `collection` re-answered, and `probe` changed. */
    const probeFile = (collection: "Alpha" | "Beta" | null, probe: string) => {
      const outside = collection === null ? [] : collection === "Alpha" ? beta : alpha;
      return merge(baseline, named(outside, places, 60), named([probe], places, 7));
    };
    const alphaRanking = rankingAlpha.find((id) => !alpha.slice(0, 200).includes(id)) ?? "";
    const alphaFeedback = feedback.find((id) => alpha.includes(id) && !alpha.slice(0, 200).includes(id)) ?? "";
    const betaRanking = rankingBeta.find((id) => !beta.slice(0, 120).includes(id)) ?? "";
    const betaFeedback = feedback.find((id) => beta.includes(id) && !beta.slice(0, 120).includes(id)) ?? "";
    const probes = [probeFile("Alpha", alphaRanking), probeFile("Alpha", alphaFeedback), probeFile("Beta", betaRanking), probeFile("Beta", betaFeedback), probeFile(null, alphaRanking)];
    const answers: { status: number; message: string }[] = [];
    for (const probe of probes) {
      const id = await scored(openFile(probe), prober);
      const error = await caught(() => request(prober, id, "Guard probe"));
      answers.push({ status: toHttpStatus(error), message: error.message });
      expectNoSampleId(error);
      expect(await publicationOf(id)).toBe("PRIVATE");
    }
    const [one] = answers;
    expect(one?.status).toBe(422);
    expect(one?.message).toContain(`This file is too close to the baseline "Guard persons" (${baselineId}, open-world, ${RELEASE_NAME} `);
    expect(one?.message).not.toMatch(/Alpha|Beta|collection "|slice/);
    for (const answer of answers) expect(answer).toEqual(one);
    const refusals = await db.publicationRefusal.findMany({ where: { userId: prober.id } });
    expect(refusals.map((refusal) => refusal.tooCloseToId)).toEqual(Array(probes.length).fill(baselineId));
    // For maintainers, the audit log says which rule: the collection one for the four collection probes, the overall one for the last.
    const rules = await db.auditLog.findMany({ where: { action: "submission.publication-refused", actorId: prober.id }, orderBy: { createdAt: "asc" } });
    expect(rules.map((entry) => (entry.details as { rule: string }).rule)).toEqual(["collection", "collection", "collection", "collection", "overall"]);
  });

});
