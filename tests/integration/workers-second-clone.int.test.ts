import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/submissions/route";
import { db } from "@/lib/platform/db";
import { stagingDir } from "@/lib/platform/files/staging";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestDatabase, assertTestRedis, assertTestServices } from "@/testing/local-database";
import { cloneHead, run, type FreshClone } from "./support/fresh-clone";
import { killAllChildren, spawnChild, type ChildHandle } from "./support/processes";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { waitFor } from "./support/wait";
import { createTestUser, sessionActor } from "@/testing/test-users";

/**
 * README, "Running workers on more machines": a second machine runs
 * `git clone`, `npm ci` and `npm run worker` with DATABASE_URL and REDIS_URL
 * only, and scores what the first machine's web app received. The second
 * machine here is a git clone of this checkout's HEAD in a temporary folder
 * with its own IRC_DATA_DIR and an environment holding nothing but PATH, HOME,
 * the two URLs, IRC_DATA_DIR, NODE_ENV and LOG_LEVEL: no shared disk, no shared
 * node_modules. The clone (and its npm ci, about a minute) is kept between runs
 * under the system's temporary folder and brought to HEAD each time; npm ci
 * runs again whenever package-lock.json changed.
 */
let clone: FreshClone;
let release: TestRelease;
let worker: ChildHandle | undefined;
let npmCiRan = false;

/** A clone of this checkout's HEAD, with dependencies installed the way the README says: npm ci. */
function prepareClone(): void {
  // Everything but the installed packages goes: generated code must come from npm ci's postinstall.
  clone = cloneHead("second-clone", ["node_modules"]);
  const lockStamp = path.join(clone.dir, "node_modules", ".second-clone-lock-stamp");
  const lock = readFileSync(path.join(clone.dir, "package-lock.json"), "utf8");
  const installedFor = existsSync(lockStamp) ? readFileSync(lockStamp, "utf8") : "";
  // A second machine's environment: no DATABASE_URL while installing (postinstall must cope offline).
  const installEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "development" };
  if (installedFor !== lock) {
    run("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], clone.dir, installEnv, 900_000);
    writeFileSync(lockStamp, lock);
    npmCiRan = true;
  } else {
    // The same lockfile: the packages are the ones npm ci installed; its postinstall runs again for this HEAD.
    run("npm", ["run", "--silent", "postinstall"], clone.dir, installEnv);
  }
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  prepareClone();
}, 1_000_000);

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("a worker on a second machine", () => {
  it("from its own clone and data directory, with only the two URLs, scores an upload made to the first", async () => {
    expect(existsSync(path.join(clone.dir, "lib", "platform", "generated", "prisma"))).toBe(true);
    const participant = await createTestUser({ label: "second-clone", withoutPassword: true });
    const { token } = await createApiToken({ actor: sessionActor(participant), name: "second clone" });
    const form = new FormData();
    form.append("file", new Blob([toJsonl(predictionLines(release, "dev", "closed", 0.6, 501))]), "dev-closed.jsonl");
    const response = await POST(new Request("http://127.0.0.1:3100/api/submissions", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: string };

    const workerDataDir = path.join(clone.root, "worker-data");
    const databaseUrl = process.env.DATABASE_URL;
    const redisUrl = process.env.REDIS_URL;
    assertTestDatabase(databaseUrl);
    assertTestRedis(redisUrl);
    // LOG_LEVEL=info: the "ready" and "scored" lines this test reads (NODE_ENV=test alone logs errors only).
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      IRC_DATA_DIR: workerDataDir,
      NODE_ENV: "test",
      LOG_LEVEL: "info",
    };
    worker = spawnChild("second-clone-worker", "npm", ["run", "--silent", "worker"], env, { cwd: clone.dir });
    await worker.waitForLine(/"msg":"ready: /, 120_000);
    await waitFor(
      async () => ((await db.submission.findUniqueOrThrow({ where: { id } })).status === "SCORED" ? true : undefined),
      () => `submission ${id} was not scored by the second clone's worker (${npmCiRan ? "fresh npm ci" : "cached npm ci"} of ${clone.head}); its log:\n${worker?.tail(40) ?? ""}`,
      { timeoutMs: 120_000 },
    );
    expect(worker.lines.some((line) => line.includes(`${id}: scored`))).toBe(true);
    const score = await db.score.findUniqueOrThrow({ where: { submissionId: id } });
    expect(score.n).toBe(release.content.samples.dev.length);
    // Nothing of the upload reached the second machine's disk, and nothing was left on the first's.
    expect(await readdir(path.join(workerDataDir, "submissions")).catch(() => [])).toEqual([]);
    expect((await readdir(stagingDir()).catch(() => [])).filter((name) => name.endsWith(".part"))).toEqual([]);
  }, 300_000);
});
