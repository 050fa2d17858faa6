import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { raisedProbeFlags, readProbeFlags } from "@/lib/core/integrity/probe-flags-schema";
import { recordLine, type PublicLogRecord } from "@/lib/core/public-log/public-log-record";
import { isHeadSignedBy, logKeySchema, signedHeadSchema } from "@/lib/core/public-log/signed-head";
import { parsePublicLog, verifyChain } from "@/lib/core/public-log/verify-public-log";
import { appendPublicLog } from "@/lib/domain/public-log/append-public-log";
import { processSubmission } from "@/lib/domain/scoring/process-submission";
import { clearGoldCache } from "@/lib/domain/scoring/load-gold";
import { clearLeaderboardCache } from "@/lib/domain/leaderboard/get-leaderboard";
import { requestPublication } from "@/lib/domain/publication/request-publication";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";
import { setEntryHidden } from "@/lib/domain/publication/set-entry-hidden";
import { importReportedResults } from "@/lib/domain/releases/import-reported-results";
import { assertTestServices } from "@/testing/local-database";
import { freePort } from "@/testing/free-port";
import { publicationRequest } from "@/testing/publication-request";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";
import { REPO_ROOT } from "./support/processes";
import { importSmallRelease, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { startRouteServer, type RouteServer } from "./support/route-server";
import { submitLines } from "./support/uploads";

/**
 * The public log (docs/public-log.md) from the changes that make it: a release
 * activated, two entries published, one hidden and shown again, a gold fix that
 * flips the verdict of their pair, re-scored, and a reported result added. Each
 * change is one record, in order; the re-score's record names the flipped pair;
 * the chain and the signed head verify with the downloadable client, which then
 * refuses a log with an edited record or a rewritten past, naming the record.
 */

const BUNDLE = path.join(REPO_ROOT, "dist", "cli", "irc-bench-client.mjs");
/** Samples whose gold the fix changes: the two entries disagree exactly there. */
const FIXED = 60;

let release: TestRelease;
let releaseLabel: string;
let maintainer: TestUser;
let alphaOwner: TestUser;
let betaOwner: TestUser;
let alphaId: string;
let betaId: string;
let server: RouteServer;
let home: string;

type ClientRun = { code: number | null; stdout: string; stderr: string };

function verifyLog(): Promise<ClientRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE, "verify-log", "--url", server.url], {
      cwd: home,
      env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: home, IRC_BENCH_CONFIG: path.join(home, "config", "config.json") },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Alpha answers the fix's new gold on the fixed samples, Beta the old gold; elsewhere both answer alike (every other sample right). */
function predictions(which: "alpha" | "beta"): string[] {
  const samples = release.content.samples.test;
  return samples.map((sample, index) => {
    const gold = release.entityByQid.get(sample.qid)?.name ?? "";
    let prediction: string;
    if (index < FIXED) prediction = which === "beta" ? gold : replacementName(index);
    else prediction = index % 2 === 0 ? gold : `no idea ${index}`;
    return JSON.stringify({ id: sample.id, prediction });
  });
}

/** The entity a fixed sample's gold becomes: another test sample's, far down the split. */
function replacementQid(index: number): string {
  const samples = release.content.samples.test;
  return samples[samples.length - 1 - index]?.qid ?? "";
}

function replacementName(index: number): string {
  return release.entityByQid.get(replacementQid(index))?.name ?? "";
}

async function scoredTestFile(owner: TestUser, lines: string[]): Promise<string> {
  const submission = await submitLines(lines, { userId: owner.id });
  expect(await processSubmission(submission.id)).toBe("scored");
  return submission.id;
}

async function approve(id: string): Promise<void> {
  const score = await db.score.findUniqueOrThrow({ where: { submissionId: id }, select: { probeFlags: true } });
  const flags = readProbeFlags(score.probeFlags);
  const raised = flags === null ? [] : raisedProbeFlags(flags).map((flag) => flag.id);
  await reviewSubmission(sessionActor(maintainer), id, { action: "approve", acknowledge: raised, reason: "test entries of the public log's test" });
}

async function logKinds(): Promise<string[]> {
  return (await db.publicLogRecord.findMany({ orderBy: { seq: "asc" }, select: { kind: true } })).map((row) => row.kind);
}

beforeAll(async () => {
  assertTestServices();
  await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, "scripts", "build", "build-cli.mjs"), "--if-stale", "client"], { cwd: REPO_ROOT });
  await resetTestState();
  release = await importSmallRelease(36);
  const row = await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId }, select: { name: true, version: true } });
  releaseLabel = `${row.name}@${row.version}`;
  maintainer = await createTestUser({ label: "log-maintainer", role: "MAINTAINER", withoutPassword: true });
  alphaOwner = await createTestUser({ label: "log-alpha", withoutPassword: true });
  betaOwner = await createTestUser({ label: "log-beta", withoutPassword: true });
  home = await mkdtemp(path.join(os.tmpdir(), "irc-public-log-"));
  server = await startRouteServer(await freePort());
}, 180_000);

afterAll(async () => {
  await server?.close();
  await rm(home, { recursive: true, force: true });
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("the public log", () => {
  it("records a release, publications, a hide, a gold fix's errata and a reported result, once each and in order", async () => {
    expect(await logKinds()).toEqual(["release.activated"]);
    alphaId = await scoredTestFile(alphaOwner, predictions("alpha"));
    betaId = await scoredTestFile(betaOwner, predictions("beta"));
    // Private scores change nothing public.
    expect(await logKinds()).toEqual(["release.activated"]);

    await requestPublication(sessionActor(betaOwner), betaId, publicationRequest("Beta Linker"));
    await approve(betaId);
    // Alpha differs from Beta in too few samples per collection for the publication guard: this test's shortcut to a pending request.
    await db.submission.update({ where: { id: alphaId }, data: { publication: "PENDING", requestedAt: new Date(), systemName: "Alpha Linker" } });
    await approve(alphaId);
    await setEntryHidden(sessionActor(betaOwner), betaId, true);
    await setEntryHidden(sessionActor(betaOwner), betaId, false);

    // A gold fix: the fixed samples' gold becomes the entity Alpha named, so Alpha goes from worse than Beta to better.
    const entities = await db.entity.findMany({ where: { releaseId: release.releaseId }, select: { id: true, qid: true } });
    const entityId = new Map(entities.map((entity) => [entity.qid, entity.id]));
    for (const [index, sample] of release.content.samples.test.slice(0, FIXED).entries()) {
      await db.sample.updateMany({ where: { releaseId: release.releaseId, sampleId: sample.id }, data: { entityId: entityId.get(replacementQid(index)) } });
    }
    const stored = await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId }, select: { goldSha256: true } });
    await db.datasetRelease.update({ where: { id: release.releaseId }, data: { goldSha256: { ...(stored.goldSha256 as Record<string, string>), test: "f".repeat(64) } } });
    clearGoldCache();
    clearLeaderboardCache();
    expect(await processSubmission(alphaId)).toBe("scored");
    expect(await processSubmission(betaId)).toBe("scored");

    await importReportedResults({
      file: { release: { name: releaseLabel.split("@")[0], version: releaseLabel.split("@")[1] }, results: [{ name: "Paper system", track: "open", split: "test", metrics: { exact: 0.25, alias: 0.3125 }, source: "A paper, Table 2" }] },
    });

    expect(await logKinds()).toEqual([
      "release.activated",
      "entry.published",
      "entry.published",
      "entry.hidden",
      "entry.unhidden",
      "entry.rescored",
      "entry.rescored",
      "reported.added",
    ]);
    const records = await db.publicLogRecord.findMany({ orderBy: { seq: "asc" } });
    expect(records.map((record) => record.entry)).toEqual([null, betaId, alphaId, betaId, betaId, alphaId, betaId, null]);
    expect(records[1]?.summary).toBe('"Beta Linker" (open-world, test) published');
    expect(records[7]?.data).toMatchObject({ name: "Paper system", metrics: { alias: "31.3", exact: "25.0" } });

    // The second re-score makes the pair testable again: its record names the flipped pair, old and new verdict.
    const [first, second] = [alphaId, betaId].sort();
    const flipped = (records[6]?.data as { verdicts: Array<Record<string, string>> }).verdicts.filter((change) => change.view === "open");
    expect(flipped).toEqual([
      expect.objectContaining({ entry: first, other: second, before: first === alphaId ? "worse" : "better", after: first === alphaId ? "better" : "worse" }),
    ]);
    expect(records[6]?.summary).toContain("gold fix");
    expect((records[5]?.data as { gold_version_before: string; gold_version_after: string }).gold_version_before).not.toBe((records[5]?.data as { gold_version_after: string }).gold_version_after);
  }, 180_000);

  it("serves the log as JSON Lines with strong ETags, ?after and filters, a signed head and its key", async () => {
    const response = await fetch(`${server.url}/api/public-log`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/jsonl; charset=utf-8");
    const body = await response.text();
    const parsed = parsePublicLog(body);
    if (!parsed.ok) throw new Error(parsed.problem.message);
    const chain = verifyChain(parsed.records);
    expect(chain).toMatchObject({ ok: true, head: { seq: 8 } });
    expect(body.split("\n")[0]).toBe(recordLine(parsed.records[0] as PublicLogRecord));

    const etag = response.headers.get("etag") ?? "";
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect((await fetch(`${server.url}/api/public-log`, { headers: { "If-None-Match": etag } })).status).toBe(304);
    const after = await (await fetch(`${server.url}/api/public-log?after=6`)).text();
    expect(after.trim().split("\n").map((line) => (JSON.parse(line) as { seq: number }).seq)).toEqual([7, 8]);
    const ofBeta = await (await fetch(`${server.url}/api/public-log?entry=${betaId}`)).text();
    expect(ofBeta.trim().split("\n").map((line) => (JSON.parse(line) as { seq: number }).seq)).toEqual([2, 4, 5, 7]);
    const bad = await fetch(`${server.url}/api/public-log?since=3`);
    expect(bad.status).toBe(422);
    expect((await bad.json()) as unknown).toMatchObject({ error: { problems: [{ message: 'unknown query parameter "since"' }] } });

    const head = signedHeadSchema.parse(await (await fetch(`${server.url}/api/public-log/head`)).json());
    const key = logKeySchema.parse(await (await fetch(`${server.url}/api/public-log/key`)).json());
    expect(head).toMatchObject({ seq: 8, hash: parsed.records[7]?.hash });
    expect(isHeadSignedBy(head, key.publicKey)).toBe(true);
    expect(response.headers.get("irc-log-head")).toBe(`8 ${head.hash}`);
  });

  it("verify-log checks the chain and the signature, remembers the head, and names an edited record or a rewritten past", async () => {
    const good = await verifyLog();
    expect(good.stderr).toBe("");
    expect(good.code).toBe(0);
    const head = await db.publicLogRecord.findUniqueOrThrow({ where: { seq: 8 } });
    expect(good.stdout).toContain(`head: record 8 ${head.hash}`);

    // Someone with the database edits one stored record: its hash no longer matches.
    const third = await db.publicLogRecord.findUniqueOrThrow({ where: { seq: 3 } });
    await db.publicLogRecord.update({ where: { seq: 3 }, data: { summary: "Alpha Linker was never published" } });
    const edited = await verifyLog();
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain("record 3's hash is not the SHA-256 of its content");
    await db.publicLogRecord.update({ where: { seq: 3 }, data: { summary: third.summary } });
    expect((await verifyLog()).code).toBe(0);

    // A rewritten past: records 4 on replaced by a consistent chain without the hide. It verifies on its own, not against what was seen.
    await db.$transaction(async (tx) => {
      await tx.publicLogRecord.deleteMany({ where: { seq: { gte: 4 } } });
      await appendPublicLog(tx, { kind: "reported.added", release: { id: release.releaseId, name: releaseLabel.split("@")[0] ?? "", version: releaseLabel.split("@")[1] ?? "" }, summary: "Reported result \"Paper system\" (open-world, test) added", data: {} });
    });
    const rewritten = await verifyLog();
    expect(rewritten.code).toBe(1);
    expect(rewritten.stderr).toContain("record 4 differs from the one verified before");
  });
});
