import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { db } from "@/lib/db";
import { AppError, toHttpStatus } from "@/lib/errors";
import { getSharedRedis } from "@/lib/redis";
import { getTestQuota } from "@/lib/submissions/quota";
import { createSubmission } from "@/lib/submissions/create-submission";
import { getScoringQueue } from "@/lib/submissions/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { stageText, submitLines } from "./support/uploads";
import { createTestUser, type TestUser } from "./support/users";

/**
 * Protocol §12: a test file that answers all but a few samples like an
 * earlier test file of the same account and track is refused before queueing
 * (422), costing no quota. The small release has 232 test samples, so a new
 * file must differ in at least max(25, ceil(2.32)) = 25 of them.
 */
const TEST_SAMPLES = 232;
const REQUIRED = 25;

let release: TestRelease;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  expect(release.content.samples.test).toHaveLength(TEST_SAMPLES);
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

type Line = { id: string; prediction?: string; ranking?: string[] };

function parse(lines: readonly string[]): Line[] {
  return lines.map((line) => JSON.parse(line) as Line);
}

function serialize(lines: readonly Line[]): string[] {
  return lines.map((line) => JSON.stringify(line));
}

/** The open-world lines with the first `count` predictions replaced by answers no other line gives. */
function changeOpen(lines: readonly string[], count: number, label: string): string[] {
  return serialize(parse(lines).map((line, index) => (index < count ? { ...line, prediction: `${label} answer ${index}` } : line)));
}

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${error === undefined ? "success" : String(error)}`);
  return error;
}

async function stateOf(user: TestUser) {
  const [submissions, quota, jobs] = await Promise.all([
    db.submission.count({ where: { userId: user.id } }),
    getTestQuota(user.id, release.releaseId),
    getScoringQueue().count(),
  ]);
  return { submissions, usedTotal: quota.usedTotal, jobs };
}

function uploadedLabel(date: Date): string {
  // ISO 8601 in UTC, to the second (lib/format/dates.ts).
  return `${date.toISOString().slice(0, 19)}Z`;
}

describe("differencing (test split)", () => {
  it("a second file differing in 1 sample is refused with 422, naming the first and the count; no quota, nothing queued", async () => {
    const user = await createTestUser("diff-one");
    const base = predictionLines(release, "test", "open", 0.4, 901);
    const first = await submitLines(base, { userId: user.id });
    expect(first.answerDigests).toHaveLength(TEST_SAMPLES * 8);
    const before = await stateOf(user);

    const error = await refusal(() => submitLines(changeOpen(base, 1, "probe"), { userId: user.id }));
    expect(toHttpStatus(error)).toBe(422);
    expect(error.message).toBe(
      `This file differs from your submission ${first.id} (uploaded ${uploadedLabel(first.createdAt)}) in only 1 of ${TEST_SAMPLES} samples; ` +
        `test files must differ in at least ${REQUIRED} samples from each earlier one (protocol §12), so a one-line difference cannot read a single answer. It cost no quota.`,
    );
    expect(await stateOf(user)).toEqual(before);
  });

  it("an identical re-upload is refused, and so is one that differs only by case and spacing", async () => {
    const user = await createTestUser("diff-same");
    const base = predictionLines(release, "test", "open", 0.4, 902);
    const first = await submitLines(base, { userId: user.id });
    const before = await stateOf(user);

    const identical = await refusal(() => submitLines(base, { userId: user.id }));
    expect(toHttpStatus(identical)).toBe(422);
    expect(identical.message).toContain(`the same answers as your submission ${first.id}`);
    expect(identical.message).toContain(`in all ${TEST_SAMPLES} samples`);

    const shouted = serialize(parse(base).map((line) => ({ ...line, prediction: `  ${(line.prediction ?? "").toUpperCase()} ` })));
    const recased = await refusal(() => submitLines(shouted, { userId: user.id }));
    expect(recased.message).toContain(`the same answers as your submission ${first.id}`);
    expect(await stateOf(user)).toEqual(before);
  });

  it(`a file differing in ${REQUIRED - 1} samples is refused, one differing in ${REQUIRED} is accepted and counts`, async () => {
    const user = await createTestUser("diff-enough");
    const base = predictionLines(release, "test", "open", 0.4, 903);
    await submitLines(base, { userId: user.id });
    const almost = await refusal(() => submitLines(changeOpen(base, REQUIRED - 1, "almost"), { userId: user.id }));
    expect(almost.message).toContain(`in only ${REQUIRED - 1} of ${TEST_SAMPLES} samples`);

    const second = await submitLines(changeOpen(base, REQUIRED, "enough"), { userId: user.id });
    expect(second.countsToQuota).toBe(true);
    expect((await getTestQuota(user.id, release.releaseId)).usedTotal).toBe(2);
    // the third must differ from both earlier files
    const nearSecond = await refusal(() => submitLines(changeOpen(base, REQUIRED + 1, "enough"), { userId: user.id }));
    expect(nearSecond.message).toContain(`your submission ${second.id}`);
    expect(nearSecond.message).toContain("in only 1 of");
  });

  it("closed-world rankings: reordering one ranking is a difference of one sample", async () => {
    const user = await createTestUser("diff-closed");
    const base = predictionLines(release, "test", "closed", 0.4, 904);
    const first = await submitLines(base, { userId: user.id });
    const lines = parse(base);
    const index = lines.findIndex((line) => (line.ranking?.length ?? 0) >= 2);
    const target = lines[index];
    if (!target?.ranking) throw new Error("expected a ranking of two or more QIDs");
    lines[index] = { ...target, ranking: [...target.ranking].reverse() };
    const error = await refusal(() => submitLines(serialize(lines), { userId: user.id }));
    expect(error.message).toContain(`your submission ${first.id}`);
    expect(error.message).toContain(`in only 1 of ${TEST_SAMPLES} samples`);
    // the other track is compared only with its own files
    const open = await submitLines(predictionLines(release, "test", "open", 0.4, 904), { userId: user.id });
    expect(open.track).toBe("open");
  });

  it("two concurrent uploads of one file: exactly one is accepted (the account's lock)", async () => {
    const user = await createTestUser("diff-race");
    const text = toJsonl(predictionLines(release, "test", "open", 0.4, 908));
    const staged = await Promise.all([stageText(text), stageText(text)]);
    const settled = await Promise.allSettled(staged.map((file) => createSubmission({ userId: user.id, staged: file, originalName: "race.jsonl" })));
    expect(settled.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const refused = settled.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
    expect(refused).toHaveLength(1);
    expect(refused[0] instanceof AppError ? refused[0].code : refused[0]).toBe("validation");
    expect((await getTestQuota(user.id, release.releaseId)).usedTotal).toBe(1);
  });

  it("another account may upload the same file", async () => {
    const base = predictionLines(release, "test", "open", 0.4, 905);
    await submitLines(base, { userId: (await createTestUser("diff-a")).id });
    const other = await submitLines(base, { userId: (await createTestUser("diff-b")).id });
    expect(other.split).toBe("test");
  });

  it("an earlier file stored without digests is compared from the file store, and its digests are kept", async () => {
    const user = await createTestUser("diff-backfill");
    const base = predictionLines(release, "test", "open", 0.4, 906);
    const first = await submitLines(base, { userId: user.id });
    const digests = first.answerDigests;
    await db.submission.update({ where: { id: first.id }, data: { answerDigests: null } });
    const error = await refusal(() => submitLines(changeOpen(base, 2, "backfill"), { userId: user.id }));
    expect(error.message).toContain(`your submission ${first.id}`);
    expect(error.message).toContain("in only 2 of");
    const row = await db.submission.findUniqueOrThrow({ where: { id: first.id }, select: { answerDigests: true } });
    expect(row.answerDigests).toEqual(digests);
  });
});

describe("differencing (dev split)", () => {
  it("dev files are never refused, identical or one sample apart", async () => {
    const user = await createTestUser("diff-dev");
    const base = predictionLines(release, "dev", "open", 0.4, 907);
    await submitLines(base, { userId: user.id });
    await submitLines(base, { userId: user.id });
    await submitLines(changeOpen(base, 1, "dev"), { userId: user.id });
    expect(await db.submission.count({ where: { userId: user.id, split: "dev" } })).toBe(3);
  });
});
