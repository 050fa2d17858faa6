import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getLeaderboardApi } from "@/app/api/leaderboard/route";
import { db } from "@/lib/platform/db";
import { importRelease } from "@/lib/domain/releases/import-release";
import { callJson } from "@/testing/leaderboard/integration-fixtures";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren, REPO_ROOT, spawnChild } from "./support/processes";
import { resetTestState } from "./support/reset";
import { startWorker } from "./support/workers";

/**
 * The quick start's demo entries (`npm run up` runs these two steps): three
 * published demo entries, then, with a worker running, a demo maintainer's
 * re-run of the retriever that goes through the reproduction check, so a
 * reader of the quick start sees a `reproduced` entry.
 */

const TSX = path.join(REPO_ROOT, "node_modules/.bin/tsx");

type ApiRow = { id: string | null; kind: string; tier: string };

/** The public leaderboard API's entries for a query, baselines and reported rows left out. */
async function systemsOn(query: string): Promise<ApiRow[]> {
  const { status, body, text } = await callJson(await getLeaderboardApi(new Request(`http://127.0.0.1/api/leaderboard${query}`)));
  expect(status, text).toBe(200);
  return (body as { entries: ApiRow[] }).entries.filter((row) => row.kind === "submission");
}

async function runDemoEntries(args: string[]): Promise<{ code: number | null; output: string }> {
  const child = spawnChild("demo-entries", TSX, ["--conditions=react-server", "scripts/ops/demo-entries.ts", ...args], process.env, { cwd: REPO_ROOT });
  const { code } = await child.waitForExit(180_000);
  return { code, output: child.tail(60) };
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  await importRelease({ dir: path.join(REPO_ROOT, "data/demo-release"), activate: true });
}, 120_000);

afterAll(async () => {
  await killAllChildren();
});

describe("npm run demo:entries", () => {
  it("publishes three demo entries, and --reproduce makes the retriever reproduced through the platform's check, once", async () => {
    const published = await runDemoEntries([]);
    expect(published.code, published.output).toBe(0);
    const entries = await db.submission.findMany({ where: { publication: "PUBLISHED", isBaseline: false }, include: { user: true } });
    expect(entries.map((entry) => entry.systemName).sort()).toEqual(["Ada-LLM few-shot (demo)", "Bo fine-tuned 1B (demo)", "Cy dense retriever (demo)"]);

    // Without a worker nothing gets scored: the step says so instead of hanging.
    const unscored = await runDemoEntries(["--reproduce", "--wait-seconds", "1"]);
    expect(unscored.code).toBe(1);
    expect(unscored.output).toMatch(/is still (QUEUED|SCORING) after 1 s: is a worker running\?/);

    const worker = await startWorker();
    const reproduced = await runDemoEntries(["--reproduce", "--wait-seconds", "150"]);
    expect(reproduced.code, reproduced.output).toBe(0);
    expect(reproduced.output).toContain("Cy dense retriever (demo): reproduced by Demo maintainer (reproduction)");

    const cy = await db.submission.findFirstOrThrow({ where: { systemName: "Cy dense retriever (demo)" }, include: { reproducedBy: true } });
    expect(cy.reproducedAt).not.toBeNull();
    expect(cy.reproducedBy?.role).toBe("MAINTAINER");
    const rerun = await db.submission.findUniqueOrThrow({ where: { id: cy.reproductionId! }, include: { score: true } });
    expect(rerun.userId).toBe(cy.reproducedById);
    expect(rerun.status).toBe("SCORED");
    expect(rerun.fileSha256).not.toBe(cy.fileSha256);
    const audit = await db.auditLog.findMany({ where: { targetId: cy.id, action: { startsWith: "submission.reproduc" } } });
    expect(audit.map((row) => row.action)).toEqual(["submission.reproduce"]);

    // What the reader does on the quick start: the open-weights fine-tuned systems
    // that used no source data, and the reproduced entries.
    const bo = await db.submission.findFirstOrThrow({ where: { systemName: "Bo fine-tuned 1B (demo)" } });
    expect((await systemsOn("?track=open&weights=yes&approach=fine-tuned-llm&source=no")).map((row) => row.id)).toEqual([bo.id]);
    expect((await systemsOn("?track=closed&tier=reproduced")).map((row) => [row.id, row.tier])).toEqual([[cy.id, "reproduced"]]);

    // Idempotent: a second run (every `npm run up`) changes nothing.
    const again = await runDemoEntries(["--reproduce"]);
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain("already reproduced");
    expect(await db.submission.count({ where: { userId: cy.reproducedById! } })).toBe(1);
    await worker.stop();
  }, 400_000);
});
