import { spawnSync } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { processSubmission } from "@/lib/domain/scoring/process-submission";
import { requestPublication } from "@/lib/domain/publication/request-publication";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";
import { raisedProbeFlags, readProbeFlags } from "@/lib/core/integrity/probe-flags-schema";
import { assertTestServices, withDatabaseName } from "@/testing/local-database";
import { publicationRequest } from "@/testing/publication-request";
import { createTestUser, sessionActor } from "@/testing/test-users";
import { REPO_ROOT } from "./support/processes";
import { importSmallRelease, predictionLines } from "./support/release";
import { resetTestState } from "./support/reset";
import { runRepoScript } from "./support/run-script";
import { submitLines } from "./support/uploads";

/**
 * npm run backup and npm run restore (docs/deploy.md, section 9): a site with a
 * release, a published entry and its public log is backed up into one file,
 * restored into another, empty database and data directory, and the restored
 * database answers the same public API bytes (leaderboard, entries, the public
 * log) and the same signed log head. The backup names the secrets to keep and
 * holds none of their values.
 */

const RESTORED_DB = withDatabaseName(process.env.DATABASE_URL ?? "", "irc_bench_test_restored");
let work: string;

function redisDb(index: number): string {
  return (process.env.REDIS_URL ?? "").replace(/\/\d*$/, `/${index}`);
}

function bash(script: string, args: string[], env: NodeJS.ProcessEnv): { status: number | null; output: string } {
  const result = spawnSync("bash", [path.join(REPO_ROOT, script), ...args], { cwd: REPO_ROOT, env, encoding: "utf8", timeout: 300_000 });
  return { status: result.status, output: `${result.stdout}\n${result.stderr}` };
}

async function publicReads(databaseUrl: string, redisUrl: string): Promise<Record<string, string>> {
  const result = await runRepoScript("tests/integration/support/print-public-reads.ts", [], { ...process.env, DATABASE_URL: databaseUrl, REDIS_URL: redisUrl });
  if (result.code !== 0) throw new Error(result.stderr);
  return JSON.parse(result.stdout) as Record<string, string>;
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  work = await mkdtemp(path.join(os.tmpdir(), "irc-backup-"));
  const release = await importSmallRelease(11);
  const owner = await createTestUser({ label: "backup-owner", withoutPassword: true });
  const maintainer = await createTestUser({ label: "backup-maintainer", role: "MAINTAINER", withoutPassword: true });
  for (const [index, seed] of [21, 22].entries()) {
    const submission = await submitLines(predictionLines(release, "test", "open", 0.3 + index * 0.2, seed), { userId: owner.id });
    expect(await processSubmission(submission.id)).toBe("scored");
    if (index === 0) {
      await requestPublication(sessionActor(owner), submission.id, publicationRequest("Backed-up Linker"));
      const flags = readProbeFlags((await db.score.findUniqueOrThrow({ where: { submissionId: submission.id } })).probeFlags);
      const acknowledge = flags === null ? [] : raisedProbeFlags(flags).map((flag) => flag.id);
      await reviewSubmission(sessionActor(maintainer), submission.id, { action: "approve", acknowledge, reason: "an entry of the backup test" });
    }
  }
  const ensured = spawnSync(process.execPath, [path.join(REPO_ROOT, "scripts", "ops", "ensure-database.mjs")], { cwd: REPO_ROOT, env: { ...process.env, DATABASE_URL: RESTORED_DB }, encoding: "utf8" });
  expect(ensured.status, ensured.stderr).toBe(0);
}, 300_000);

afterAll(async () => {
  await rm(work, { recursive: true, force: true });
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("npm run backup and npm run restore", () => {
  it("restore a backup into an empty database that answers the same public bytes and log head", async () => {
    const file = path.join(work, "irc-bench.backup");
    const backup = bash("scripts/ops/backup.sh", ["--out", file], process.env);
    expect(backup.status, backup.output).toBe(0);
    expect(backup.output).toContain("Keep these secrets with it (their values are not in the file): NEXTAUTH_SECRET, IRC_SLICE_SECRET, IRC_LOG_SIGNING_KEY");
    const listing = spawnSync("tar", ["-tf", file], { encoding: "utf8" }).stdout;
    expect(listing).toContain("./database.dump");
    expect(listing).toContain("./backup.json");
    const manifest = spawnSync("tar", ["-xOf", file, "./backup.json"], { encoding: "utf8" }).stdout;
    expect(JSON.parse(manifest)).toMatchObject({ format: "irc-bench-backup/1", secrets: ["NEXTAUTH_SECRET", "IRC_SLICE_SECRET", "IRC_LOG_SIGNING_KEY"] });
    for (const secret of [process.env.NEXTAUTH_SECRET, process.env.IRC_SLICE_SECRET, process.env.IRC_LOG_SIGNING_KEY]) {
      if (secret !== undefined) expect(spawnSync("grep", ["-c", "--fixed-strings", "-e", secret, file]).status).toBe(1);
    }

    const restoreEnv = { ...process.env, DATABASE_URL: RESTORED_DB, IRC_DATA_DIR: path.join(work, "restored-data") };
    const restored = bash("scripts/ops/restore.sh", [file, "--force"], restoreEnv);
    expect(restored.status, restored.output).toBe(0);
    expect(restored.output).toMatch(/public log head \d+ [0-9a-f]{64}, as in the backup/);
    // A database that holds a release is not replaced by accident.
    const again = bash("scripts/ops/restore.sh", [file], restoreEnv);
    expect(again.status).toBe(1);
    expect(again.output).toContain("add --force to replace it");

    const [original, copy] = [await publicReads(process.env.DATABASE_URL ?? "", redisDb(3)), await publicReads(RESTORED_DB, redisDb(4))];
    expect(original["leaderboard-open"]).toMatch(/^200 .*Backed-up Linker/);
    expect(original.head).toMatch(/^200 \{"seq":2,/);
    expect(copy).toEqual(original);
  }, 300_000);
});
