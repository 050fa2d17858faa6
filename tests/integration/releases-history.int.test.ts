import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getReleaseLeaderboard } from "@/lib/domain/leaderboard/get-release-leaderboard";
import { getSharedRedis } from "@/lib/platform/redis";
import { findReleaseByVersion, getReleaseDetail, listReleaseChangelog } from "@/lib/domain/releases/release-history";
import { supersedeRelease } from "@/lib/domain/releases/supersede-release";
import { PLATFORM_SCORING_VERSION as SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { processSubmission } from "@/lib/domain/scoring/process-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { caught } from "./support/errors";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { independentPerturbedCounts, independentRate, openCountsOf, type NoiseKey } from "./support/independent-perturbation";

/**
 * Release pages and their history against a real PostgreSQL and Redis:
 * re-scores are recorded once with what changed, the release page shows a
 * public entry's numbers through disclosure and counts the others, and a
 * maintainer marks a release superseded (audited) while its leaderboard stays
 * readable.
 */

let first: TestRelease;
let firstVersion: string;
let participant: TestUser;
let maintainer: TestUser;
let publishedId: string;
let privateId: string;

async function scored(lines: string[]): Promise<string> {
  const submission = await submitLines(lines, { userId: participant.id });
  expect(await processSubmission(submission.id)).toBe("scored");
  return submission.id;
}

/**
 * A test entry's public alias rate (protocol section 12): worked out from its
 * stored outcomes on the ranking slice's positions (tier 1 or 2, section 6),
 * not read from the score's stored slice report.
 */
/** The entry's exact ranking-slice alias rate (what stored reports and maintainers hold). */
async function exactRankingAlias(submissionId: string, releaseId: string): Promise<number> {
  const { slices } = await loadSplitGold(releaseId, "test");
  const score = await db.score.findUniqueOrThrow({ where: { submissionId } });
  const ranking = Array.from(slices?.ranking ?? []);
  expect(ranking.length).toBeGreaterThan(0);
  return ranking.filter((position) => score.outcomes[position] === 1 || score.outcomes[position] === 2).length / ranking.length;
}

/** The entry's public alias rate: its ranking-slice count perturbed and rounded to 0.1 point (section 12), computed independently. */
async function rankingAlias(submissionId: string, releaseId: string): Promise<number> {
  const { slices } = await loadSplitGold(releaseId, "test");
  const score = await db.score.findUniqueOrThrow({ where: { submissionId } });
  const ranking = Array.from(slices?.ranking ?? []);
  expect(ranking.length).toBeGreaterThan(0);
  const release = await db.datasetRelease.findUniqueOrThrow({ where: { id: releaseId }, select: { name: true, goldSha256: true } });
  const key: NoiseKey = { secret: sliceSecretOf(getEnv()), releaseName: release.name, goldVersion: goldVersionId(releaseGoldOf(release.goldSha256, "test")!) };
  const counts = openCountsOf(ranking.map((position) => score.outcomes[position] ?? 0));
  return independentRate(independentPerturbedCounts(key, submissionId, "all", ranking.length, counts).alias!, ranking.length);
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  first = await importSmallRelease(7);
  firstVersion = (await db.datasetRelease.findUniqueOrThrow({ where: { id: first.releaseId } })).version;
  participant = await createTestUser({ label: "history", withoutPassword: true });
  maintainer = await createTestUser({ label: "history-maintainer", role: "MAINTAINER", withoutPassword: true });
  publishedId = await scored(predictionLines(first, "test", "open", 0.4, 51));
  await db.submission.update({ where: { id: publishedId }, data: { publication: "PUBLISHED", publishedAt: new Date("2026-11-20T00:00:00Z"), systemName: "History Open" } });
  privateId = await scored(predictionLines(first, "dev", "open", 0.5, 52));
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("re-scoring events", () => {
  it("records a re-score under a new scorer version once, with the metrics before and after", async () => {
    // As after a scorer upgrade: the stored scores were made by 1.0.0 and are stale.
    await db.score.updateMany({ where: { submissionId: { in: [publishedId, privateId] } }, data: { scorerVersion: "1.0.0" } });
    expect(await processSubmission(publishedId)).toBe("scored");
    expect(await processSubmission(privateId)).toBe("scored");
    // A repeated delivery of the forced job changes nothing and records nothing.
    expect(await processSubmission(publishedId, { force: true })).toBe("scored");

    const events = await db.rescoreEvent.findMany({ where: { releaseId: first.releaseId }, orderBy: { createdAt: "asc" } });
    expect(events.map((event) => [event.submissionId, event.beforeScorerVersion, event.afterScorerVersion])).toEqual([
      [publishedId, "1.0.0", SCORER_VERSION],
      [privateId, "1.0.0", SCORER_VERSION],
    ]);
    // A test entry's event holds its public numbers, the ranking slice's: exactly the stored slice report's
    // (JSON written as text, never moved by an ulp), which is the rate worked out from the outcomes.
    const [stored] = await db.$queryRaw<{ alias: number }[]>`SELECT ("rankingReport"->'metrics'->>'alias')::float8 AS "alias" FROM "Score" WHERE "submissionId" = ${publishedId}`;
    expect((events[0]?.afterMetrics as Record<string, number>).alias).toBe(stored?.alias);
    expect(stored?.alias).toBe(await exactRankingAlias(publishedId, first.releaseId));
    // A dev file's event holds its whole split's.
    const [dev] = await db.$queryRaw<{ alias: number }[]>`SELECT ("report"->'metrics'->>'alias')::float8 AS "alias" FROM "Score" WHERE "submissionId" = ${privateId}`;
    expect((events[1]?.afterMetrics as Record<string, number>).alias).toBe(dev?.alias);
  });

  it("shows no exact-count number of a public test entry (its public values are the log's perturbed errata) and only counts the unpublished ones", async () => {
    const detail = await getReleaseDetail(firstVersion);
    expect(detail).not.toBeNull();
    const score = await db.score.findUniqueOrThrow({ where: { submissionId: publishedId } });
    expect(detail?.publicRescores).toHaveLength(1);
    const [rescore] = detail?.publicRescores ?? [];
    expect(rescore).toMatchObject({ entryId: publishedId, system: "History Open", split: "test", metric: "alias", beforeScorerVersion: "1.0.0", afterScorerVersion: SCORER_VERSION });
    // Section 12 (v1.3): the event's metrics are exact; rounded, they would be the window probe the perturbation closes.
    expect([rescore?.before, rescore?.after]).toEqual([null, null]);
    expect(rescore?.beforeGoldVersion).toBe(rescore?.afterGoldVersion);
    expect(rescore?.beforeGoldVersion).toMatch(/^gv-[0-9a-f]{16}$/);
    expect(detail?.privateRescores).toEqual([{ split: "dev", beforeScorerVersion: "1.0.0", afterScorerVersion: SCORER_VERSION, isGoldChanged: false, count: 1 }]);
    expect(JSON.stringify(detail)).not.toContain(score.goldSha256);
  });

  it("lists the release's files with sizes and SHA-256 and its scorer versions", async () => {
    const detail = await getReleaseDetail(firstVersion);
    expect(detail?.files.map((file) => file.name)).toEqual(["train.jsonl", "dev.jsonl", "test.jsonl", "kb.jsonl"]);
    for (const file of detail?.files ?? []) {
      expect(file.digest.sha256).toMatch(/^[0-9a-f]{64}$/);
      expect(file.digest.bytes).toBeGreaterThan(0);
    }
    expect(detail?.scorerVersions).toEqual([
      { scorerVersion: SCORER_VERSION, split: "dev", scores: 1, isCurrent: true },
      { scorerVersion: SCORER_VERSION, split: "test", scores: 1, isCurrent: true },
    ]);
  });
});

describe("superseded releases", () => {
  let secondVersion: string;

  beforeAll(async () => {
    const second = await importSmallRelease(8);
    secondVersion = (await db.datasetRelease.findUniqueOrThrow({ where: { id: second.releaseId } })).version;
  });

  it("refuses participants, the active release and unknown successors, each with what to do", async () => {
    const change = { action: "supersede" as const, supersededBy: secondVersion, reason: "a corrected release" };
    expect((await caught(() => supersedeRelease({ actor: sessionActor(participant), version: firstVersion, change }))).code).toBe("forbidden");
    const active = await caught(() => supersedeRelease({ actor: sessionActor(maintainer), version: secondVersion, change: { ...change, supersededBy: firstVersion } }));
    expect(active.code).toBe("conflict");
    expect(active.message).toContain("activate its successor first");
    const unknown = await caught(() => supersedeRelease({ actor: sessionActor(maintainer), version: firstVersion, change: { ...change, supersededBy: "9.9" } }));
    expect(unknown.code).toBe("validation");
    expect(unknown.message).toBe('supersededBy: no release has the version "9.9".');
  });

  it("marks a release superseded in the audit log, and its leaderboard stays readable", async () => {
    const result = await supersedeRelease({ actor: sessionActor(maintainer), version: firstVersion, change: { action: "supersede", supersededBy: secondVersion, reason: "a corrected release" } });
    expect(result).toEqual({ version: firstVersion, supersededBy: secondVersion, isChanged: true });
    const again = await supersedeRelease({ actor: sessionActor(maintainer), version: firstVersion, change: { action: "supersede", supersededBy: secondVersion, reason: "twice" } });
    expect(again.isChanged).toBe(false);

    const audit = await db.auditLog.findMany({ where: { targetType: "DatasetRelease", targetId: first.releaseId } });
    expect(audit.map((row) => [row.action, row.actorId, row.reason])).toEqual([["release.superseded", maintainer.id, "a corrected release"]]);

    const summary = await findReleaseByVersion(firstVersion);
    expect(summary?.supersededBy).toEqual({ name: expect.any(String), version: secondVersion });
    expect(summary?.isActive).toBe(false);

    const board = await getReleaseLeaderboard({ releaseId: first.releaseId, track: "open", scope: "primary" });
    expect(board?.release.version).toBe(firstVersion);
    const row = board?.rows.find((candidate) => candidate.entryId === publishedId);
    // The ranking slice's rate, perturbed and rounded to 0.1 point (section 12).
    expect(row?.metrics.alias?.value).toBe(await rankingAlias(publishedId, first.releaseId));

    const changelog = await listReleaseChangelog();
    expect(changelog.map((entry) => [entry.version, entry.isActive, entry.supersededBy?.version ?? null])).toEqual([
      [secondVersion, true, null],
      [firstVersion, false, secondVersion],
    ]);
    expect(changelog[0]?.changes.join("; ")).toContain("gold changed on");
    expect(changelog[1]?.rescoreCount).toBe(2);
  });

  it("keeps an earlier release's board per process under that release's own stamp: reused, and never stale after a hide", async () => {
    const options = { releaseId: first.releaseId, track: "open" as const, scope: "primary" as const };
    const board = await getReleaseLeaderboard(options);
    expect(board?.rows.some((row) => row.entryId === publishedId)).toBe(true);
    expect(await getReleaseLeaderboard(options)).toBe(board);
    await db.submission.update({ where: { id: publishedId }, data: { publication: "HIDDEN" } });
    try {
      const after = await getReleaseLeaderboard(options);
      expect(after).not.toBe(board);
      expect(after?.rows.some((row) => row.entryId === publishedId)).toBe(false);
    } finally {
      await db.submission.update({ where: { id: publishedId }, data: { publication: "PUBLISHED" } });
    }
    expect((await getReleaseLeaderboard(options))?.rows.some((row) => row.entryId === publishedId)).toBe(true);
  });

  it("takes the mark back, also audited", async () => {
    const result = await supersedeRelease({ actor: sessionActor(maintainer), version: firstVersion, change: { action: "restore", reason: "marked by mistake" } });
    expect(result).toEqual({ version: firstVersion, supersededBy: null, isChanged: true });
    expect((await findReleaseByVersion(firstVersion))?.supersededBy).toBeNull();
    const actions = (await db.auditLog.findMany({ where: { targetId: first.releaseId }, orderBy: { createdAt: "asc" } })).map((row) => row.action);
    expect(actions).toEqual(["release.superseded", "release.superseded_removed"]);
  });

  it("refuses a mark that would make releases supersede each other, naming the chain", async () => {
    // A third release becomes the active one; the first two are then both inactive.
    const third = await importSmallRelease(9);
    const thirdVersion = (await db.datasetRelease.findUniqueOrThrow({ where: { id: third.releaseId } })).version;
    const supersede = (version: string, by: string) => supersedeRelease({ actor: sessionActor(maintainer), version, change: { action: "supersede", supersededBy: by, reason: "cycle check" } });
    await supersede(firstVersion, secondVersion);
    await supersede(secondVersion, thirdVersion);
    expect(await db.datasetRelease.count({ where: { supersededById: { not: null } } })).toBe(2);
    // The active one cannot be marked at all; an inactive one marked by its own predecessor is refused as a cycle.
    await supersedeRelease({ actor: sessionActor(maintainer), version: secondVersion, change: { action: "restore", reason: "cycle check" } });
    const cycle = await caught(() => supersede(secondVersion, firstVersion));
    expect(cycle.code).toBe("validation");
    expect(cycle.message).toContain(`through ${firstVersion} -> ${secondVersion}`);
    expect((await findReleaseByVersion(secondVersion))?.supersededBy).toBeNull();
  });
});
