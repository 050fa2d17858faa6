import { existsSync } from "node:fs";
import { request as httpRequest } from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestDatabase, assertTestRedis, assertTestServices } from "@/testing/local-database";
import { bareEnv, cloneHead, run, runCapturing, runOrExplain, type FreshClone } from "./support/fresh-clone";
import { killAllChildren, spawnChild, type ChildHandle } from "./support/processes";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { waitFor } from "./support/wait";
import { freePort } from "@/testing/free-port";
import { createTestUser, sessionActor } from "@/testing/test-users";

/**
 * docs/deploy.md, "Build" and "Run", the way an operator does it on a fresh
 * clone, with NODE_ENV=production in the shell (they sourced the environment
 * file): plain `npm ci` leaves the devDependencies out, and `npm run build`
 * must stop at once with one sentence naming NODE_ENV and the fix; then
 * `npm ci --include=dev` and `npm run build` with no database, Redis or secret
 * in the environment (and a second build directory, NEXT_DIST_DIR, which used
 * to rewrite tsconfig.json), printing neither the Edge-runtime error of
 * instrumentation.ts nor Prisma's "will NOT be used" warning; then
 * `npm ci --omit=dev` (no tsx, no esbuild) and `npm run db:migrate`, then
 * `npm start` bound to loopback behind a "proxy"
 * and `npm run worker`, each with only the variables the guide sets. An upload
 * sent as nginx forwards it (an internal Host, X-Forwarded-Host and -Proto)
 * must answer with links on PUBLIC_URL (so must the OpenAPI document and an
 * export), and the worker must score it.
 *
 * Slow (two installs and a production build, several minutes on a busy
 * machine), and always from scratch: what it proves is that nothing left
 * over from an earlier run is needed.
 */
const PUBLIC_URL = "https://irc-bench.example.org";
const DIST_DIR = ".next-deploy";
const SECRET = "deploy-test-secret-0123456789abcdef";
/** Protocol section 12: production refuses to start without a slice secret of at least 32 characters (docs/deploy.md sets one). */
const SLICE_SECRET = "deploy-test-slice-secret-0123456789abcdef";
const LOG_SIGNING_KEY = Buffer.alloc(32, 9).toString("base64");

let clone: FreshClone;
let release: TestRelease;
let web: ChildHandle | undefined;
let worker: ChildHandle | undefined;
let port = 0;
let statusAfterBuild = "";
let statusAfterInstall = "";
let refusedBuild: { status: number | null; output: string; leftBuildOutput: boolean };
let buildOutput = "";
let migrateOutput: { status: number | null; output: string };


type ProxiedResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: string };

/** A request as nginx passes it on: the socket is loopback, Host is the upstream's name, the original host and scheme in X-Forwarded-*. */
async function sendAsProxy(pathname: string, init: { method: string; headers: Record<string, string>; body?: Buffer }): Promise<ProxiedResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(
      {
        host: "127.0.0.1",
        port,
        path: pathname,
        method: init.method,
        headers: {
          host: "irc-bench-upstream:8080",
          "x-forwarded-host": "attacker.example.net",
          "x-forwarded-proto": "https",
          "x-forwarded-for": "203.0.113.7",
          ...init.headers,
          ...(init.body ? { "content-length": String(init.body.length) } : {}),
        },
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString("utf8") }));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(init.body);
  });
}

async function multipart(fileName: string, content: string): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  form.append("file", new Blob([content]), fileName);
  const encoded = new Request("http://multipart.invalid/", { method: "POST", body: form });
  return { body: Buffer.from(await encoded.arrayBuffer()), contentType: encoded.headers.get("content-type") ?? "" };
}

function runtimeEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const databaseUrl = process.env.DATABASE_URL;
  const redisUrl = process.env.REDIS_URL;
  assertTestDatabase(databaseUrl);
  assertTestRedis(redisUrl);
  return bareEnv({
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    NODE_ENV: "production",
    NEXTAUTH_SECRET: SECRET,
    IRC_SLICE_SECRET: SLICE_SECRET,
    IRC_LOG_SIGNING_KEY: LOG_SIGNING_KEY,
    IRC_DATA_DIR: path.join(clone.root, "data"),
    NEXT_DIST_DIR: DIST_DIR,
    LOG_LEVEL: "info",
    ...extra,
  });
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(11);
  clone = cloneHead("deploy");
  const operatorShell = { NODE_ENV: "production" };
  // The build machine with NODE_ENV=production already set: npm ci omits devDependencies, and the build must refuse at once.
  runOrExplain("npm", ["ci", "--no-audit", "--no-fund", "--loglevel=error"], clone.dir, bareEnv(operatorShell));
  const refused = runCapturing("npm", ["run", "--silent", "build"], clone.dir, bareEnv({ ...operatorShell, NEXT_DIST_DIR: DIST_DIR }));
  refusedBuild = { ...refused, leftBuildOutput: existsSync(path.join(clone.dir, DIST_DIR)) || existsSync(path.join(clone.dir, "dist", "server")) };
  // The fix it names: dependencies with the build tools, then the build, with nothing else configured.
  runOrExplain("npm", ["ci", "--include=dev", "--no-audit", "--no-fund", "--loglevel=error"], clone.dir, bareEnv(operatorShell));
  const built = runCapturing("npm", ["run", "build"], clone.dir, bareEnv({ ...operatorShell, NEXT_DIST_DIR: DIST_DIR }));
  if (built.status !== 0) throw new Error(`npm run build failed (exit ${built.status}):\n${built.output.split("\n").slice(-60).join("\n")}`);
  buildOutput = built.output;
  statusAfterBuild = run("git", ["status", "--porcelain"], clone.dir);
  // The production install: no devDependencies; the build's output (dist/, the build directory) stays.
  runOrExplain("npm", ["ci", "--omit=dev", "--no-audit", "--no-fund", "--loglevel=error"], clone.dir, bareEnv(operatorShell));
  statusAfterInstall = run("git", ["status", "--porcelain"], clone.dir);
  port = await freePort();
  // Nothing left to apply (the test database is migrated); what matters is what it prints.
  migrateOutput = runCapturing("npm", ["run", "--silent", "db:migrate"], clone.dir, runtimeEnv({}));
}, 1_800_000);

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("a production deployment from a fresh clone (docs/deploy.md)", () => {
  it("refuses to build without the devDependencies, in one sentence naming NODE_ENV and the fix, before building anything", () => {
    expect(refusedBuild.status).not.toBe(0);
    const lines = refusedBuild.output.split("\n").filter((line) => line.trim() !== "");
    expect(lines, refusedBuild.output).toEqual([expect.stringMatching(/^npm run build: .*NODE_ENV=production.*`npm ci --include=dev`/)]);
    expect(lines[0]).toContain("esbuild");
    expect(refusedBuild.leftBuildOutput).toBe(false);
  });

  it("builds without the Edge-runtime error of instrumentation.ts and migrates without Prisma's unused-url warning", () => {
    expect(buildOutput).toContain("Compiled successfully");
    expect(buildOutput).not.toContain("Ecmascript file had an error");
    expect(buildOutput).not.toContain("not supported in the Edge Runtime");
    expect(buildOutput).not.toContain("will NOT be used");
    expect(migrateOutput.status, migrateOutput.output).toBe(0);
    expect(migrateOutput.output).toMatch(/No pending migrations to apply|migrations have been successfully applied/);
    expect(migrateOutput.output).not.toContain("will NOT be used");
  });

  it("builds with no services or secrets in the environment and leaves every tracked file as it was", () => {
    expect(statusAfterBuild).toBe("");
    expect(statusAfterInstall).toBe("");
    expect(existsSync(path.join(clone.dir, DIST_DIR, "BUILD_ID"))).toBe(true);
    expect(existsSync(path.join(clone.dir, "dist", "server", "scoring-worker.cjs"))).toBe(true);
    // What the production install left out, and what it kept.
    expect(existsSync(path.join(clone.dir, "node_modules", "tsx"))).toBe(false);
    expect(existsSync(path.join(clone.dir, "node_modules", "esbuild"))).toBe(false);
    expect(existsSync(path.join(clone.dir, "node_modules", "prisma"))).toBe(true);
    expect(existsSync(path.join(clone.dir, "lib", "platform", "generated", "prisma"))).toBe(true);
  });

  it("serves on loopback behind a proxy, answers an upload with links on PUBLIC_URL, and its worker scores it", async () => {
    worker = spawnChild("deploy-worker", "npm", ["run", "--silent", "worker"], runtimeEnv({}), { cwd: clone.dir });
    web = spawnChild(
      "deploy-web",
      "npm",
      ["run", "--silent", "start"],
      runtimeEnv({ PORT: String(port), BIND_HOST: "127.0.0.1", PUBLIC_URL, TRUSTED_PROXY_HOPS: "1" }),
      { cwd: clone.dir },
    );
    const ready = await web.waitForLine(/"msg":"ready on /, 180_000);
    expect(ready).toContain(`"bind":"127.0.0.1"`);
    await worker.waitForLine(/"msg":"ready: /, 120_000);
    // Plain Node ran the compiled worker: a production install has no tsx to fall back on.
    expect(existsSync(path.join(clone.dir, "node_modules", ".bin", "tsx"))).toBe(false);

    const participant = await createTestUser({ label: "deploy", withoutPassword: true });
    const { token } = await createApiToken({ actor: sessionActor(participant), name: "deploy" });
    const upload = await multipart("dev-closed.jsonl", toJsonl(predictionLines(release, "dev", "closed", 0.6, 73)));
    const created = await sendAsProxy("/api/submissions", {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": upload.contentType },
      body: upload.body,
    });
    expect(created.status, created.body).toBe(201);
    const body = JSON.parse(created.body) as { id: string; statusUrl: string; pageUrl: string };
    expect(body.statusUrl).toBe(`${PUBLIC_URL}/api/submissions/${body.id}`);
    expect(body.pageUrl).toBe(`${PUBLIC_URL}/submissions/${body.id}`);
    expect(created.headers.location).toBe(`${PUBLIC_URL}/submissions/${body.id}`);

    const openApi = await sendAsProxy("/api/openapi.json", { method: "GET", headers: {} });
    expect(openApi.status).toBe(200);
    expect((JSON.parse(openApi.body) as { servers: { url: string }[] }).servers.map((server) => server.url)).toEqual([PUBLIC_URL]);

    const exported = await sendAsProxy("/api/leaderboard/export?track=closed&format=json", { method: "GET", headers: {} });
    expect(exported.status, exported.body).toBe(200);
    expect((JSON.parse(exported.body) as { url: string }).url).toBe(`${PUBLIC_URL}/leaderboard?track=closed`);

    await waitFor(
      async () => ((await db.submission.findUniqueOrThrow({ where: { id: body.id } })).status === "SCORED" ? true : undefined),
      () => `submission ${body.id} was not scored by the deployed worker (${clone.head}); its log:\n${worker?.tail(40) ?? ""}`,
      { timeoutMs: 120_000 },
    );
    expect(worker.lines.some((line) => line.includes(`${body.id}: scored`))).toBe(true);
  }, 420_000);
});
