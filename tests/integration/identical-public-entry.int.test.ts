import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getSubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Protocol section 12: a test file identical to another account's public
 * entry is told to its uploader and to maintainers as "identical to the
 * public entry X"; a private file of another account is never mentioned,
 * and the public entry's owner learns nothing of the copy.
 */
let release: TestRelease;
let first: TestUser;
let copier: TestUser;
let maintainer: TestUser;
let originalId = "";
let copyId = "";

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(17);
  [first, copier, maintainer] = [await createTestUser({ label: "identical-first", withoutPassword: true }), await createTestUser({ label: "identical-copier", withoutPassword: true }), await createTestUser({ label: "identical-maintainer", role: "MAINTAINER", withoutPassword: true })];
  const lines = predictionLines(release, "test", "open", 0.5, 171);
  originalId = (await submitLines(lines, { userId: first.id, originalName: "original.jsonl" })).id;
  copyId = (await submitLines(lines, { userId: copier.id, originalName: "copy.jsonl" })).id;
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("a test file identical to another account's entry", () => {
  it("is not mentioned while that entry is private, pending or hidden", async () => {
    for (const publication of ["PRIVATE", "PENDING", "HIDDEN"] as const) {
      await db.submission.update({ where: { id: originalId }, data: { publication, systemName: "Original System" } });
      expect((await getSubmissionView(sessionActor(copier), copyId)).identicalPublicEntry).toBeNull();
      expect((await getSubmissionView(sessionActor(maintainer), copyId)).identicalPublicEntry).toBeNull();
    }
  });

  it("names the public entry to the uploader and to maintainers once it is published; its owner is told nothing", async () => {
    await db.submission.update({ where: { id: originalId }, data: { publication: "PUBLISHED", publishedAt: new Date(), systemName: "Original System" } });
    const expected = { id: originalId, system: "Original System", isBaseline: false };
    expect((await getSubmissionView(sessionActor(copier), copyId)).identicalPublicEntry).toEqual(expected);
    expect((await getSubmissionView(sessionActor(maintainer), copyId)).identicalPublicEntry).toEqual(expected);
    expect((await getSubmissionView(sessionActor(first), originalId)).identicalPublicEntry).toBeNull();
  });
});
