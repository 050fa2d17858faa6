import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaselines } from "@/lib/baselines/run-baselines";
import { db } from "@/lib/db";
import { clearLeaderboardCache, getLeaderboard, setLeaderboardStampTtl } from "@/lib/leaderboard/get-leaderboard";
import type { LeaderboardRow, LeaderboardView } from "@/lib/leaderboard/leaderboard-types";
import { getSharedRedis } from "@/lib/redis";
import { importRelease } from "@/lib/releases/import-release";
import { getScoringQueue } from "@/lib/submissions/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { createTestUser } from "./support/users";
import { waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";

/**
 * Protocol v1.1 sections 9 and 13 on the bundled demo release, the case the
 * issue reported: Ada against the best open-world baseline is p = 0.0303 in
 * the section 9 family of open-world baselines (one baseline), and 0.0605 in
 * the baseline's section 13 family {Ada, Bo}; the leaderboard's mark is the
 * section 13 test, so it agrees with the ranks. The ranks, marks and family
 * of every view are checked against each other, and the cache follows a
 * publication and a hide.
 */

const DEMO = "data/demo-release";
const PREDICTIONS = "data/demo-predictions";
let worker: WorkerProcess | undefined;
const ids: Record<string, string> = {};

async function publish(file: string, systemName: string): Promise<string> {
  const owner = await createTestUser(systemName.split(" ")[0]!.toLowerCase());
  const lines = (await readFile(path.join(PREDICTIONS, file), "utf8")).split("\n").filter((line) => line.trim() !== "");
  const submission = await submitLines(lines, { userId: owner.id, originalName: file });
  await db.submission.update({ where: { id: submission.id }, data: { publication: "PUBLISHED", publishedAt: new Date(), systemName } });
  return submission.id;
}

async function view(track: "open" | "closed" | "unified"): Promise<LeaderboardView> {
  const snapshot = await getLeaderboard({ track });
  if (snapshot === null) throw new Error("no active release");
  return snapshot.view;
}

const rowOf = (current: LeaderboardView, id: string): LeaderboardRow => {
  const row = current.rows.find((candidate) => candidate.key === id);
  if (!row) throw new Error(`no row ${id}`);
  return row;
};

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  setLeaderboardStampTtl(0);
  const release = await importRelease({ dir: DEMO, activate: true });
  const baselines = (await runBaselines(release.releaseId)).map((result) => result.submissionId);
  ids.ada = await publish("test-open.jsonl", "Ada-LLM few-shot (demo)");
  ids.bo = await publish("test-open-weak.jsonl", "Bo fine-tuned 1B (demo)");
  ids.cy = await publish("test-closed.jsonl", "Cy dense retriever (demo)");
  worker = await startWorker({ WORKER_CONCURRENCY: "2" });
  await waitForAllSettled([...baselines, ids.ada, ids.bo, ids.cy], { timeoutMs: 120_000, workers: [worker] });
  const open = await db.submission.findFirstOrThrow({ where: { releaseId: release.releaseId, split: "test", isBaseline: true, track: "open" } });
  ids.openBaseline = open.id;
  clearLeaderboardCache();
}, 240_000);

afterAll(async () => {
  setLeaderboardStampTtl(1000);
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("[LEADERBOARD] Holm families and paired-test ranks on the demo", () => {
  it("Ada vs the open-world baseline: p = 0.0303 in the open-world family of baselines (section 9)", async () => {
    const rows = await db.comparison.findMany({ where: { entryId: ids.ada, family: "track" } });
    expect(rows.map((row) => row.baselineId)).toEqual([ids.openBaseline]);
    expect(rows[0]?.pHolm).toBeCloseTo(0.0303, 4);
    expect(rows[0]?.pHolm).toBe(rows[0]?.p);
  });

  it("the leaderboard's mark is the section 13 test in the baseline's family {Ada, Bo}: p = 0.0605", async () => {
    const open = await view("open");
    expect(open.bestBaseline?.id).toBe(ids.openBaseline);
    const ada = rowOf(open, ids.ada!);
    expect(ada.significance).toMatchObject({ family: "baseline", direction: "better" });
    expect(ada.significance?.pHolm).toBeCloseTo(0.0605, 4);
    expect(ada.significance?.isSignificant).toBe(false);
    // And so the baseline's rank does not count Ada: the two say the same thing.
    const baseline = rowOf(open, ids.openBaseline!);
    expect(baseline.rankReason?.better.some((better) => better.entryId === ids.ada)).toBe(false);
  });

  it("in every view, each rank is 1 + the entries its reason names, and each mark agrees with the ranks", async () => {
    for (const track of ["open", "closed", "unified"] as const) {
      const current = await view(track);
      const best = current.bestBaseline;
      for (const row of current.rows) {
        if (row.kind === "reported") {
          expect(row.rank).toBeNull();
          continue;
        }
        expect(row.rank, `${track} ${row.system}`).toBe(1 + (row.rankReason?.better.length ?? 0));
        const mark = row.significance;
        if (best === null || mark === null) continue;
        const baselineRow = rowOf(current, best.id);
        if (mark.isSignificant && mark.direction === "better") expect(baselineRow.rankReason?.better.some((better) => better.entryId === row.key)).toBe(true);
        if (mark.isSignificant && mark.direction === "worse") expect(row.rankReason?.better.some((better) => better.entryId === best.id)).toBe(true);
        if (!mark.isSignificant) {
          expect(baselineRow.rankReason?.better.some((better) => better.entryId === row.key)).toBe(false);
          expect(row.rankReason?.better.some((better) => better.entryId === best.id)).toBe(false);
        }
      }
    }
  });

  it("compares each entry in its track's family and in the unified family of every baseline, identical baselines counted once", async () => {
    const baselines = await db.submission.findMany({ where: { isBaseline: true, split: "test" }, select: { id: true, track: true } });
    const cy = await db.comparison.findMany({ where: { entryId: ids.cy }, orderBy: { baselineId: "asc" } });
    const closedCount = baselines.filter((baseline) => baseline.track === "closed").length;
    expect(cy.filter((row) => row.family === "track")).toHaveLength(closedCount);
    expect(cy.filter((row) => row.family === "track").every((row) => row.metric === "hit@1")).toBe(true);
    expect(cy.filter((row) => row.family === "unified")).toHaveLength(baselines.length);
    expect(cy.filter((row) => row.family === "unified").every((row) => row.metric === "unified")).toBe(true);
    // A baseline marked identical carries the same counts as the one standing for it.
    for (const row of cy.filter((candidate) => candidate.identicalTo !== null)) {
      const standIn = cy.find((candidate) => candidate.family === row.family && candidate.baselineId === row.identicalTo);
      expect(standIn).toMatchObject({ b: row.b, c: row.c, pHolm: row.pHolm });
      expect(row.identicalTo! < row.baselineId).toBe(true);
    }
  });

  it("follows a hide and a publication (the cached view is rebuilt)", async () => {
    expect((await view("open")).rows.some((row) => row.key === ids.bo)).toBe(true);
    await db.submission.update({ where: { id: ids.bo }, data: { publication: "HIDDEN" } });
    const hidden = await view("open");
    expect(hidden.rows.some((row) => row.key === ids.bo)).toBe(false);
    // Without Bo, the baseline's family is {Ada} alone: Ada's p is no longer doubled.
    expect(rowOf(hidden, ids.ada!).significance?.pHolm).toBeCloseTo(0.0303, 4);
    await db.submission.update({ where: { id: ids.bo }, data: { publication: "PUBLISHED" } });
    expect(rowOf(await view("open"), ids.ada!).significance?.pHolm).toBeCloseTo(0.0605, 4);
  });
});
