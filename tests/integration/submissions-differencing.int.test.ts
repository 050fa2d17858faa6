import { afterAll, beforeAll, describe, expect, it } from "vitest";

import { randomBytes } from "node:crypto";
import { db } from "@/lib/db";
import { AppError, toHttpStatus } from "@/lib/errors";
import { norm } from "@/lib/scoring/normalize";
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
 * file must differ in at least max(25, ceil(2.32)) = 25 of them. Only answers
 * that could score count: the test candidates are the KB entities of no train
 * or dev sample, and an answer none of them could make right is no answer.
 */
const TEST_SAMPLES = 232;
const REQUIRED = 25;
const NOTE =
  "Answers are compared by what they could score on each metric: an answer that no test entity could make right (nonsense, a train or dev entity) counts as no answer. It cost no quota.";

let release: TestRelease;
/** The test candidates (KB entities of no train or dev sample), in KB order. */
let candidates: { qid: string; name: string }[];
/** QIDs of train and dev entities: never test gold. */
let knownQids: string[];

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  expect(release.content.samples.test).toHaveLength(TEST_SAMPLES);
  const known = new Set([...release.content.samples.train, ...release.content.samples.dev].map((sample) => sample.qid));
  knownQids = [...known];
  candidates = release.content.entities.filter((entity) => !known.has(entity.qid)).map(({ qid, name }) => ({ qid, name }));
  expect(candidates.length).toBeGreaterThan(2 * REQUIRED + 2);
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

/**
 * The open-world lines with the first `count` predictions replaced by the name
 * of a test candidate (an answer that could score), from candidate `start` on;
 * a name the line already gives is passed over.
 */
function changeOpen(lines: readonly string[], count: number, start: number): string[] {
  let next = start;
  return serialize(
    parse(lines).map((line, index) => {
      if (index >= count) return line;
      let name = candidates[next % candidates.length]?.name ?? "";
      if (norm(name) === norm(line.prediction ?? "")) name = candidates[++next % candidates.length]?.name ?? "";
      next += 1;
      return { ...line, prediction: name };
    }),
  );
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
    // One 8-byte digest per sample and open-track metric (exact, alias, contain, jaccard).
    expect(first.answerDigests).toHaveLength(TEST_SAMPLES * 4 * 8);
    const before = await stateOf(user);

    const error = await refusal(() => submitLines(changeOpen(base, 1, 0), { userId: user.id }));
    expect(toHttpStatus(error)).toBe(422);
    expect(error.message).toBe(
      `This file differs from your submission ${first.id} (uploaded ${uploadedLabel(first.createdAt)}) in only 1 of ${TEST_SAMPLES} samples that could score; ` +
        `a test file must differ from each earlier one in at least ${REQUIRED} samples, and every metric must move by at least ${REQUIRED} samples or by none (protocol §12), so a few changed answers cannot be read off a score. ${NOTE}`,
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
    expect(identical.message).toContain(`the same scorable answers as your submission ${first.id}`);
    expect(identical.message).toContain(`in all ${TEST_SAMPLES} samples`);

    const shouted = serialize(parse(base).map((line) => ({ ...line, prediction: `  ${(line.prediction ?? "").toUpperCase()} ` })));
    const recased = await refusal(() => submitLines(shouted, { userId: user.id }));
    expect(recased.message).toContain(`the same scorable answers as your submission ${first.id}`);
    expect(await stateOf(user)).toEqual(before);
  });

  it(`a file differing in ${REQUIRED - 1} samples is refused, one differing in ${REQUIRED} is accepted and counts`, async () => {
    const user = await createTestUser("diff-enough");
    const base = predictionLines(release, "test", "open", 0.4, 903);
    await submitLines(base, { userId: user.id });
    const almost = await refusal(() => submitLines(changeOpen(base, REQUIRED - 1, 0), { userId: user.id }));
    expect(almost.message).toContain(`in only ${REQUIRED - 1} of ${TEST_SAMPLES} samples that could score`);

    const second = await submitLines(changeOpen(base, REQUIRED, 100), { userId: user.id });
    expect(second.countsToQuota).toBe(true);
    expect((await getTestQuota(user.id, release.releaseId)).usedTotal).toBe(2);
    // the third must differ from both earlier files
    const nearSecond = await refusal(() => submitLines(changeOpen(base, REQUIRED + 1, 100), { userId: user.id }));
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
    const error = await refusal(() => submitLines(changeOpen(base, 2, 0), { userId: user.id }));
    expect(error.message).toContain(`your submission ${first.id}`);
    expect(error.message).toContain("in only 2 of");
    const row = await db.submission.findUniqueOrThrow({ where: { id: first.id }, select: { answerDigests: true } });
    expect(row.answerDigests).toEqual(digests);
  });
});

/**
 * The red team's attack: two known-right answers, one probe answered with a
 * guess, every other sample an answer that can never be right. The second file
 * changes the probe and every never-right answer into another never-right one:
 * it differs from the first in every line, but could score differently in one.
 */
describe("differencing: a probe hidden among never-right answers (red team)", () => {
  const testIds = () => release.content.samples.test.map((sample) => sample.id);
  const goldNameOf = (index: number) => release.entityByQid.get(release.content.samples.test[index]?.qid ?? "")?.name ?? "";

  function openAttack(probe: string, salt: string): string[] {
    return testIds().map((id, index) => {
      const prediction = index < 2 ? goldNameOf(index) : index === 2 ? probe : `zzq${salt}x${index}`;
      return JSON.stringify({ id, prediction });
    });
  }

  /** Rankings of train and dev entities only (`shift` picks which), the probe's guess at `probeRank`. */
  function closedAttack(guess: string, probeRank: number, shift: number): string[] {
    return testIds().map((id, index) => {
      const ranking = Array.from({ length: 10 }, (_, position) => knownQids[(index * 10 + position + shift) % knownQids.length] ?? "");
      if (index === 0) ranking.splice(probeRank - 1, 1, guess);
      return JSON.stringify({ id, ranking });
    });
  }

  it("open track: A is accepted, B2 (new probe, new nonsense everywhere) refused, a file changing 25 informative answers accepted", async () => {
    const user = await createTestUser("diff-attack-open");
    const first = await submitLines(openAttack(candidates[0]?.name ?? "", "a"), { userId: user.id });
    const before = await stateOf(user);

    const probe = await refusal(() => submitLines(openAttack(candidates[1]?.name ?? "", "b"), { userId: user.id }));
    expect(toHttpStatus(probe)).toBe(422);
    expect(probe.message).toContain(`differs from your submission ${first.id}`);
    expect(probe.message).toContain(`in only 1 of ${TEST_SAMPLES} samples that could score`);
    expect(await stateOf(user)).toEqual(before);

    const informative = changeOpen(openAttack(candidates[0]?.name ?? "", "c"), REQUIRED, 200);
    const accepted = await submitLines(informative, { userId: user.id });
    expect(accepted.countsToQuota).toBe(true);
  });

  it("closed track: A is accepted, B2 (guess moved from rank 1 to 3, every ranking of train and dev entities changed) refused, 25 informative rankings accepted", async () => {
    const user = await createTestUser("diff-attack-closed");
    const guess = candidates[0]?.qid ?? "";
    const first = await submitLines(closedAttack(guess, 1, 0), { userId: user.id });
    const before = await stateOf(user);

    for (const probeRank of [3, 5, 10]) {
      const probe = await refusal(() => submitLines(closedAttack(guess, probeRank, probeRank), { userId: user.id }));
      expect(probe.message).toContain(`differs from your submission ${first.id}`);
      expect(probe.message).toContain(`in only 1 of ${TEST_SAMPLES} samples that could score`);
    }
    // the same probe among other rankings of train and dev entities: nothing that could score changed
    const same = await refusal(() => submitLines(closedAttack(guess, 1, 7), { userId: user.id }));
    expect(same.message).toContain(`the same scorable answers as your submission ${first.id}`);
    expect(await stateOf(user)).toEqual(before);

    const informative = parse(closedAttack(guess, 1, 0)).map((line, index) =>
      index > 0 && index <= REQUIRED ? { ...line, ranking: [candidates[index]?.qid ?? "", ...(line.ranking ?? []).slice(1)] } : line,
    );
    const accepted = await submitLines(serialize(informative), { userId: user.id });
    expect(accepted.track).toBe("closed");
  });

  it("closed track: padding that moves only MRR is no cover: hit@1 moving by the one changed guess is refused", async () => {
    const user = await createTestUser("diff-attack-deep");
    const guess = candidates[0]?.qid ?? "";
    const withDeep = (probeRank: number, offset: number) =>
      serialize(
        parse(closedAttack(guess, probeRank, 0)).map((line, index) =>
          // Place 11 of every other ranking: a test candidate, a different one in each file (MRR moves in every sample).
          index > 0 ? { ...line, ranking: [...(line.ranking ?? []), candidates[(index + offset) % candidates.length]?.qid ?? ""] } : line,
        ),
      );
    const first = await submitLines(withDeep(1, 0), { userId: user.id });
    const probe = await refusal(() => submitLines(withDeep(3, 1), { userId: user.id }));
    expect(probe.message).toContain(`This file changes hit@1 from your submission ${first.id}`);
    expect(probe.message).toContain(`in only 1 of ${TEST_SAMPLES} samples`);
  });

  it("digests stored under an earlier answer key are recomputed, not compared", async () => {
    const user = await createTestUser("diff-attack-version");
    const first = await submitLines(openAttack(candidates[0]?.name ?? "", "a"), { userId: user.id });
    // Digests of the earlier key: every sample's differs from the new file's.
    await db.submission.update({ where: { id: first.id }, data: { answerDigests: randomBytes(TEST_SAMPLES * 8), answerDigestsVersion: null } });
    const probe = await refusal(() => submitLines(openAttack(candidates[1]?.name ?? "", "b"), { userId: user.id }));
    expect(probe.message).toContain(`in only 1 of ${TEST_SAMPLES} samples that could score`);
    const row = await db.submission.findUniqueOrThrow({ where: { id: first.id }, select: { answerDigests: true, answerDigestsVersion: true } });
    expect(row.answerDigestsVersion).toBe(4);
    expect(row.answerDigests).toEqual(first.answerDigests);
  });
});

describe("differencing (dev split)", () => {
  it("dev files are never refused, identical or one sample apart", async () => {
    const user = await createTestUser("diff-dev");
    const base = predictionLines(release, "dev", "open", 0.4, 907);
    await submitLines(base, { userId: user.id });
    await submitLines(base, { userId: user.id });
    await submitLines(changeOpen(base, 1, 0), { userId: user.id });
    expect(await db.submission.count({ where: { userId: user.id, split: "dev" } })).toBe(3);
  });
});
