import { DEDICATED_REDIS_PORT } from "./support/dedicated-redis-url";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { closeSharedRedis } from "@/lib/platform/redis";
import { importRelease } from "@/lib/domain/releases/import-release";
import { closeScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { caught } from "./support/errors";
import { killAllChildren } from "./support/processes";
import { DedicatedRedis } from "./support/redis-server";
import { resetTestState } from "./support/reset";
import { runRepoScript } from "./support/run-script";

/**
 * Importing a release ends either with the release stored, its planner
 * statistics fresh and its baselines queued, or with nothing of it kept and
 * one sentence saying why: here the baselines cannot be queued because Redis
 * (a redis-server of this file's own) is down. Then `npm run baselines`
 * reports the baselines the import just queued as queued. An import that died
 * after its commit, before its baselines, is finished by running it again.
 */
let redis: DedicatedRedis;
let workDir: string;
const dirs: Record<"first" | "second" | "third", string> = { first: "", second: "", third: "" };

async function writeSmallRelease(name: keyof typeof dirs, seed: number): Promise<void> {
  dirs[name] = path.join(workDir, name);
  await writeRelease(dirs[name], synthesizeRelease({ seed, size: "small" }));
}

beforeAll(async () => {
  redis = await DedicatedRedis.create(DEDICATED_REDIS_PORT);
  if (redis.url !== process.env.REDIS_URL) throw new Error(`port ${DEDICATED_REDIS_PORT} is taken; the dedicated Redis would be ${redis.url}`);
  await redis.start();
  assertTestServices();
  await resetTestState();
  workDir = await mkdtemp(path.join(os.tmpdir(), "irc-int-import-baselines-"));
  await writeSmallRelease("first", 61);
  await writeSmallRelease("second", 62);
  await writeSmallRelease("third", 63);
}, 120_000);

afterAll(async () => {
  await killAllChildren();
  await closeScoringQueue().catch(() => undefined);
  await closeSharedRedis();
  await redis?.destroy();
  await db.$disconnect();
  if (workDir) await rm(workDir, { recursive: true, force: true });
});

describe("importing a release with its baselines", () => {
  it("has an index on Sample.entityId, analyses the tables it filled and ends with the test baselines queued", async () => {
    const indexes = await db.$queryRaw<{ indexdef: string }[]>`SELECT indexdef FROM pg_indexes WHERE tablename = 'Sample'`;
    expect(indexes.map((row) => row.indexdef)).toContainEqual(expect.stringMatching(/USING btree \("entityId"\)$/));

    const [{ now: startedAt }] = await db.$queryRaw<[{ now: Date }]>`SELECT now() AS now`;
    const result = await importRelease({ dir: dirs.first, activate: true, queueBaselines: true });
    expect(result.outcome).toBe("imported");
    const testBaselines = result.baselines.filter((baseline) => baseline.split === "test");
    expect(testBaselines.length).toBeGreaterThan(0);
    expect(result.baselines.every((baseline) => baseline.outcome === "created" && baseline.status === "QUEUED")).toBe(true);
    const stored = await db.submission.findMany({ where: { releaseId: result.releaseId, isBaseline: true, split: "test" } });
    expect(stored).toHaveLength(testBaselines.length);

    // last_analyze is set by an explicit ANALYZE only (autovacuum sets last_autoanalyze).
    const analysed = await db.$queryRaw<{ relname: string; last_analyze: Date | null }[]>`
      SELECT relname::text AS relname, last_analyze FROM pg_stat_user_tables WHERE relname IN ('Entity', 'Sample') ORDER BY relname`;
    expect(analysed.map((row) => row.relname)).toEqual(["Entity", "Sample"]);
    for (const row of analysed) expect(row.last_analyze?.getTime() ?? 0, row.relname).toBeGreaterThanOrEqual(startedAt.getTime());
  });

  it("rolls a new release back, naming the reason, when its baselines cannot be queued; the previous release stays active", async () => {
    const before = await db.datasetRelease.findFirstOrThrow({ where: { isActive: true } });
    const entitiesBefore = await db.entity.count();
    await redis.shutdown();
    try {
      const error = await caught(() => importRelease({ dir: dirs.second, activate: true, queueBaselines: true }));
      expect(error.code).toBe("unavailable");
      expect(error.message).toMatch(/^Release irc-bench-synthetic 1\.0-synth-small-s62 was not imported: its baselines could not be queued \(.+\)\. The import was rolled back; nothing of this release is kept\./);
      expect(await db.datasetRelease.count({ where: { version: "1.0-synth-small-s62" } })).toBe(0);
      expect((await db.datasetRelease.findFirstOrThrow({ where: { isActive: true } })).id).toBe(before.id);
      expect(await db.entity.count()).toBe(entitiesBefore);

      // The operator's command: one line on stderr, no stack trace, exit 1.
      const cli = await runRepoScript("scripts/ops/dataset-import.ts", [dirs.second, "--activate"]);
      expect(cli.code, cli.stderr).toBe(1);
      const errorLines = cli.stderr.split("\n").filter((line) => line.trim() !== "");
      expect(errorLines).toEqual([expect.stringMatching(/^error: Release irc-bench-synthetic 1\.0-synth-small-s62 was not imported: .* rolled back/)]);
      expect(await db.datasetRelease.count({ where: { version: "1.0-synth-small-s62" } })).toBe(0);
    } finally {
      await redis.start();
    }
  }, 240_000);

  it("imports through the command once Redis is back, and npm run baselines then reports those baselines as queued", async () => {
    const imported = await runRepoScript("scripts/ops/dataset-import.ts", [dirs.second, "--activate"]);
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.stdout).toMatch(/^Queued \d+ baseline submission\(s\) for scoring/m);
    const release = await db.datasetRelease.findFirstOrThrow({ where: { version: "1.0-synth-small-s62" } });
    expect(release.isActive).toBe(true);

    const report = await runRepoScript("scripts/ops/baselines.ts", []);
    expect(report.code, report.stderr).toBe(0);
    const lines = report.stdout.split("\n").filter((line) => /^(dev|test) /.test(line));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^(dev|test) +\S+ +queued +\S+$/);
    expect(report.stdout).not.toContain("unchanged");
    expect(report.stdout).toMatch(/0 new, \d+ waiting for a worker to score them/);
  }, 240_000);

  it("a re-run of an import that committed without its baselines (it died in between) queues them and says so", async () => {
    // As if the process had died right after the commit: the release is stored, without baselines.
    const committed = await importRelease({ dir: dirs.third, activate: false, queueBaselines: false });
    expect(committed.outcome).toBe("imported");
    expect(await db.submission.count({ where: { releaseId: committed.releaseId, isBaseline: true } })).toBe(0);

    const rerun = await runRepoScript("scripts/ops/dataset-import.ts", [dirs.third]);
    expect(rerun.code, rerun.stderr).toBe(0);
    expect(rerun.stdout).toMatch(/^Already imported \(its missing baselines are queued now\): irc-bench-synthetic 1\.0-synth-small-s63$/m);
    expect(rerun.stdout).not.toContain("nothing changed");
    const queued = Number(/^Queued (\d+) baseline submission\(s\)/m.exec(rerun.stdout)?.[1] ?? "0");
    expect(queued).toBeGreaterThan(0);
    const stored = await db.submission.findMany({ where: { releaseId: committed.releaseId, isBaseline: true } });
    expect(stored).toHaveLength(queued);
    expect(stored.some((submission) => submission.split === "test")).toBe(true);

    // Once they are there, a re-run changes nothing and says so.
    const again = await runRepoScript("scripts/ops/dataset-import.ts", [dirs.third]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/^Already imported, nothing changed: irc-bench-synthetic 1\.0-synth-small-s63$/m);
    expect(again.stdout).toContain(`${queued} baseline submission(s) were there already`);
    expect(again.stdout).not.toMatch(/^Queued /m);
    expect(await db.submission.count({ where: { releaseId: committed.releaseId, isBaseline: true } })).toBe(queued);
  }, 240_000);
});
