import { execFile, spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getEntryApi } from "@/app/api/entries/[id]/route";
import { GET as getLeaderboardExport } from "@/app/api/leaderboard/export/route";
import { GET as getLeaderboardApi } from "@/app/api/leaderboard/route";
import { PATCH as patchFactSheet } from "@/app/api/submissions/[id]/fact-sheet/route";
import { POST as postPublication } from "@/app/api/submissions/[id]/publication/route";
import { GET as getSubmissionApi } from "@/app/api/submissions/[id]/route";
import { db } from "@/lib/platform/db";
import { isAppError, type AppError } from "@/lib/core/errors";
import { completeFactSheet } from "@/lib/core/fact-sheet/build-fact-sheet";
import { factSheetSchema } from "@/lib/core/fact-sheet/schema";
import { FACT_SHEET_TEMPLATE } from "@/lib/core/fact-sheet/template";
import { parseCsv } from "@/testing/parse-csv";
import { getLeaderboard, setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import { checkReproduction } from "@/lib/domain/publication/check-reproduction";
import { revokeReproduction } from "@/lib/domain/publication/revoke-reproduction";
import { editFactSheet } from "@/lib/domain/publication/edit-fact-sheet";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { callJson, importLeaderboardRelease, openPredictions, storeScoredEntries, type LeaderboardFixtureRelease } from "@/testing/leaderboard/integration-fixtures";
import { assertTestDatabase } from "@/testing/local-database";
import { publicationRequest } from "@/testing/publication-request";
import { REPO_ROOT } from "./support/processes";
import { resetDatabase } from "./support/reset";
import { startRouteServer, type RouteServer } from "./support/route-server";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Issue 16, items 1 and 2: the fact sheet from the API (and the command-line
 * client against a real HTTP server of the route handlers) into the database
 * and back out of the public API; the owner's edits until approval and the
 * maintainer's audited edits after; the leaderboard's cohort filters in the API
 * and the exports, with ranks recomputed among the filtered entries; and the
 * provenance tiers, including the reproduction check (same per-sample outcomes
 * accepted, different ones refused with the count that differ).
 */

const BUNDLE = path.join(REPO_ROOT, "dist", "cli", "irc-bench-client.mjs");

let release: LeaderboardFixtureRelease;
let owner: TestUser;
let rival: TestUser;
let maintainer: TestUser;
let ownerToken = "";
let server: RouteServer;
let home = "";

const TUNED = completeFactSheet("Tuned Open", { approach: "fine-tuned-llm", openWeights: true, knowledgeCutoff: "2023-12", dataUsed: { sourceCollections: false } });

function params(id: string) {
  return { params: Promise.resolve({ id }) };
}

function bearer(path: string, init: { method?: string; body?: unknown } = {}): Request {
  return new Request(`http://127.0.0.1${path}`, {
    method: init.method ?? "GET",
    headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
    ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
  });
}

async function caught(run: () => Promise<unknown>): Promise<AppError> {
  try {
    await run();
  } catch (error) {
    if (isAppError(error)) return error;
    throw error;
  }
  throw new Error("expected an AppError");
}

type ApiRow = { id: string | null; kind: string; rank: number | null; tier: string; approach: string | null; open_weights: boolean | null };

async function leaderboardRows(query: string): Promise<{ status: number; rows: ApiRow[]; body: unknown }> {
  const result = await callJson(await getLeaderboardApi(new Request(`http://127.0.0.1/api/leaderboard${query}`)));
  const body = result.body as { entries?: ApiRow[] };
  return { status: result.status, rows: body.entries ?? [], body: result.body };
}

function runClient(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUNDLE, ...args], {
      cwd: home,
      env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", HOME: home, IRC_BENCH_URL: server.url, IRC_BENCH_TOKEN: ownerToken, IRC_BENCH_CONFIG: path.join(home, "config.json") },
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

beforeAll(async () => {
  assertTestDatabase();
  setLeaderboardStampTtl(0);
  await resetDatabase();
  await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, "scripts", "build", "build-cli.mjs"), "--if-stale", "client"], { cwd: REPO_ROOT });
  // Enough test samples that entries can differ from the baseline and from each other in max(25, 1%) ranking-slice
  // samples, as the publication guard asks (protocol section 12).
  release = await importLeaderboardRelease("fact-sheet-int", 200);
  owner = await createTestUser({ label: "owner", withoutPassword: true });
  rival = await createTestUser({ label: "rival", withoutPassword: true });
  maintainer = await createTestUser({ label: "maintainer", role: "MAINTAINER", withoutPassword: true });
  const system = await db.user.create({ data: { email: "system@fact-sheet-int.invalid", displayName: "IRC-Bench maintainers", isSystem: true } });
  ownerToken = (await createApiToken({ actor: sessionActor(owner), name: "fact sheet test" })).token;
  const test = release.gold.test;
  // Tuned: right on 4 samples in 5; Rival: on 1 in 2; the baseline on 1 in 4. The reproduction is Tuned's answers again,
  // the imperfect one differs on samples 1, 2 and 3 (right in Tuned, wrong there).
  const tuned = (i: number) => (i % 5 === 0 ? "miss" : "exact");
  await storeScoredEntries(release, [
    { id: "fsbase", userId: system.id, split: "test", publication: "PRIVATE", isBaseline: true, systemName: "Base", track: "open", predictions: openPredictions(test, (i) => (i % 4 === 0 ? "exact" : "miss")) },
    { id: "fstuned", userId: owner.id, split: "test", publication: "PRIVATE", systemName: "Tuned Open", track: "open", predictions: openPredictions(test, tuned) },
    // Another run of the owner's: far enough from Tuned (published first) to be published too.
    { id: "fsclient", userId: owner.id, split: "test", publication: "PRIVATE", systemName: "Client Sent", track: "open", predictions: openPredictions(test, (i) => (i % 3 === 0 ? "miss" : "exact")) },
    {
      id: "fsrival",
      userId: rival.id,
      split: "test",
      publication: "PUBLISHED",
      systemName: "Rival Prompted",
      track: "open",
      factSheet: { approach: "prompted-llm", openWeights: false, knowledgeCutoff: "2099-01", dataUsed: { sourceCollections: true } },
      predictions: openPredictions(test, (i) => (i % 2 === 0 ? "exact" : "miss")),
    },
    { id: "fsrepro", userId: maintainer.id, split: "test", publication: "PRIVATE", systemName: "Re-run", track: "open", predictions: openPredictions(test, tuned) },
    { id: "fsdiffer", userId: maintainer.id, split: "test", publication: "PRIVATE", systemName: "Re-run 2", track: "open", predictions: openPredictions(test, (i) => (i >= 1 && i <= 3 ? "miss" : tuned(i))) },
  ]);
  // Private entries get their sheet only when publication is requested.
  await db.submission.updateMany({ where: { id: { in: ["fstuned", "fsclient"] } }, data: { factSheet: undefined } });
  await db.submission.update({ where: { id: "fsrival" }, data: { publishedAt: new Date() } });
  home = await mkdtemp(path.join(os.tmpdir(), "irc-fact-sheet-int-"));
  server = await startRouteServer(0);
}, 120_000);

afterAll(async () => {
  await server?.close();
  if (home) await rm(home, { recursive: true, force: true });
  await db.$disconnect();
});

describe("the fact sheet from the API to the database and back", () => {
  it("is asked with the publication request, stored with its version and served by the submission and entry APIs unchanged", async () => {
    const sent = publicationRequest("Tuned Open", { factSheet: TUNED });
    const bad = await callJson(
      await postPublication(bearer("/api/submissions/fstuned/publication", { method: "POST", body: { ...sent, factSheet: { ...sent.factSheet, knowledgeCutoff: "last year", parameters: -1 } } }), params("fstuned")),
    );
    expect(bad.status).toBe(422);
    expect((bad.body as { error: { problems: unknown[] } }).error.problems).toEqual([
      { field: "factSheet.knowledgeCutoff", message: 'field "factSheet.knowledgeCutoff" must be an ISO month (2024-06) or date (2024-06-30)' },
      { field: "factSheet.parameters", message: 'field "factSheet.parameters" must not be negative' },
    ]);
    const accepted = await callJson(await postPublication(bearer("/api/submissions/fstuned/publication", { method: "POST", body: sent }), params("fstuned")));
    expect(accepted.status).toBe(202);
    const row = await db.submission.findUniqueOrThrow({ where: { id: "fstuned" } });
    expect(row.factSheet).toEqual(JSON.parse(JSON.stringify(TUNED)));
    expect(row.systemName).toBe("Tuned Open");
    const view = await callJson(await getSubmissionApi(bearer("/api/submissions/fstuned"), params("fstuned")));
    expect((view.body as { factSheet: unknown; factSheetMissing: unknown; canEditFactSheet: boolean }).factSheet).toEqual(TUNED);
    expect(view.body).toMatchObject({ factSheetMissing: [], canEditFactSheet: true, provenance: { tier: "documented", reproducedAt: null } });
  });

  it("is editable by the owner until approval, then read-only; a maintainer's later edit is audited with before and after", async () => {
    const edited = { ...TUNED, compute: "2 GPUs, 8 hours" };
    const saved = await callJson(await patchFactSheet(bearer("/api/submissions/fstuned/fact-sheet", { method: "PATCH", body: { factSheet: edited } }), params("fstuned")));
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ submissionId: "fstuned", factSheet: edited, isAudited: false });
    expect(await db.auditLog.count({ where: { targetId: "fstuned", action: "submission.edit-fact-sheet" } })).toBe(0);
    expect((await caught(() => editFactSheet(sessionActor(rival), "fstuned", { factSheet: edited }))).code).toBe("not_found");

    // Approval itself (probe flags, audit) is submissions-review's; here the entry only needs to be approved.
    await db.submission.update({ where: { id: "fstuned" }, data: { publication: "PUBLISHED", publishedAt: new Date() } });
    const locked = await callJson(await patchFactSheet(bearer("/api/submissions/fstuned/fact-sheet", { method: "PATCH", body: { factSheet: TUNED } }), params("fstuned")));
    expect(locked.status).toBe(409);
    expect((locked.body as { error: { message: string } }).error.message).toMatch(/read-only once a maintainer approved/);

    const noReason = await caught(() => editFactSheet(sessionActor(maintainer), "fstuned", { factSheet: TUNED }));
    expect(noReason.code).toBe("validation");
    expect(noReason.message).toMatch(/"reason"/);
    const corrected = await editFactSheet(sessionActor(maintainer), "fstuned", { factSheet: TUNED, reason: "owner asked: compute was wrong" });
    expect(corrected.isAudited).toBe(true);
    const audit = await db.auditLog.findFirstOrThrow({ where: { targetId: "fstuned", action: "submission.edit-fact-sheet" } });
    expect(audit).toMatchObject({ actorId: maintainer.id, reason: "owner asked: compute was wrong" });
    expect(audit.details).toMatchObject({ publication: "PUBLISHED", before: { compute: "2 GPUs, 8 hours" }, after: { compute: TUNED.compute } });

    const entry = await callJson(await getEntryApi(new Request("http://127.0.0.1/api/entries/fstuned"), params("fstuned")));
    expect(entry.status).toBe(200);
    expect(entry.body).toMatchObject({ fact_sheet: TUNED, fact_sheet_missing: [], provenance: { tier: "documented" }, open_weights: true, code_url: TUNED.codeUrl });

    // A maintainer who owns a published entry gets no exemption: a reason, and an audit row.
    await db.submission.update({ where: { id: "fstuned" }, data: { userId: maintainer.id } });
    try {
      expect((await caught(() => editFactSheet(sessionActor(maintainer), "fstuned", { factSheet: TUNED }))).message).toMatch(/"reason"/);
      expect((await editFactSheet(sessionActor(maintainer), "fstuned", { factSheet: TUNED, reason: "my own entry: wording" })).isAudited).toBe(true);
      expect(await db.auditLog.count({ where: { targetId: "fstuned", action: "submission.edit-fact-sheet" } })).toBe(2);
    } finally {
      await db.submission.update({ where: { id: "fstuned" }, data: { userId: owner.id } });
    }
  });

  it("round-trips through the command-line client: template, publish --fact-sheet, the same sheet in the database", async () => {
    const template = await runClient(["fact-sheet", "template"]);
    expect(template.code).toBe(0);
    expect(factSheetSchema.parse(JSON.parse(template.stdout))).toEqual(FACT_SHEET_TEMPLATE);
    const file = path.join(home, "sheet.json");
    const sheet = { ...FACT_SHEET_TEMPLATE, systemName: "Client Sent", knowledgeCutoff: "2024-13" };
    await writeFile(file, JSON.stringify(sheet));
    const refused = await runClient(["publish", "fsclient", "--fact-sheet", file, "--description", "Sent from the command-line client for the test."]);
    // Exit 1 is for invalid predictions alone; a refused fact sheet is 2, each field named.
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${file}: field "factSheet.knowledgeCutoff" must be an ISO month (2024-06) or date (2024-06-30)`);
    await writeFile(file, JSON.stringify({ ...sheet, knowledgeCutoff: "2024-12" }));
    const published = await runClient(["publish", "fsclient", "--fact-sheet", file, "--description", "Sent from the command-line client for the test."]);
    expect(published.stderr).toBe("");
    expect(published.code).toBe(0);
    const stored = await db.submission.findUniqueOrThrow({ where: { id: "fsclient" } });
    expect(factSheetSchema.parse(stored.factSheet)).toEqual({ ...FACT_SHEET_TEMPLATE, systemName: "Client Sent", knowledgeCutoff: "2024-12" });
    expect(stored.publication).toBe("PENDING");
    const edited = await runClient(["fact-sheet", "edit", "fsclient", file, "--json"]);
    expect(edited.code).toBe(0);
    expect(JSON.parse(edited.stdout)).toMatchObject({ submissionId: "fsclient", isAudited: false });
  }, 60_000);
});

describe("leaderboard filters by fact sheet and provenance", () => {
  it("filters the API and the exports, keeps baselines, and recomputes ranks among the entries shown", async () => {
    const all = await leaderboardRows("?track=open&scope=all");
    expect(all.rows.map((row) => [row.id, row.rank, row.tier])).toEqual([
      ["fstuned", 1, "documented"],
      ["fsrival", 2, "scored"],
      ["fsbase", 3, "scored"],
    ]);
    const open = await leaderboardRows("?track=open&scope=all&weights=yes&approach=fine-tuned-llm&source=no&cutoff=before");
    expect(open.rows.map((row) => [row.id, row.rank])).toEqual([
      ["fstuned", 1],
      ["fsbase", 2],
    ]);
    const rivalOnly = await leaderboardRows("?track=open&scope=all&source=yes");
    expect(rivalOnly.rows.map((row) => [row.id, row.rank])).toEqual([
      ["fsrival", 1],
      ["fsbase", 2],
    ]);
    expect((await leaderboardRows("?track=open&cutoff=after")).rows.map((row) => row.id)).toEqual(["fsrival", "fsbase"]);
    expect((await leaderboardRows("?track=open&tier=documented")).rows.map((row) => row.id)).toEqual(["fstuned", "fsbase"]);

    const bad = await leaderboardRows("?track=open&approach=magic");
    expect(bad.status).toBe(422);
    expect(JSON.stringify(bad.body)).toContain('query parameter \\"approach\\" must be one of prompted-llm, fine-tuned-llm, retriever, hybrid, other');

    const csv = await getLeaderboardExport(new Request("http://127.0.0.1/api/leaderboard/export?track=open&scope=all&source=yes&format=csv"));
    const table = parseCsv(await csv.text());
    const header = table[0] ?? [];
    const systemColumn = header.indexOf("system");
    expect(header).toEqual(expect.arrayContaining(["approach", "uses_source_data", "knowledge_cutoff", "tier"]));
    expect(table.slice(1).map((line) => line[systemColumn])).toEqual(["Rival Prompted", "Base"]);
  });

  it("keys the cached views by the filters: the same view twice is one snapshot, another filter another", async () => {
    const first = await getLeaderboard({ track: "open", scope: "all", cohort: { weights: "yes" } });
    const again = await getLeaderboard({ track: "open", scope: "all", cohort: { weights: "yes" } });
    const other = await getLeaderboard({ track: "open", scope: "all", cohort: { weights: "no" } });
    expect(again).toBe(first);
    expect(other?.etag).not.toBe(first?.etag);
    expect(other?.view.rows.map((row) => row.key)).toEqual(["fsrival", "fsbase"]);
  });
});

describe("provenance tiers: the reproduction check", () => {
  it("refuses a reproduction whose outcomes differ, with the count only, and audits it", async () => {
    const refused = await caught(() => checkReproduction(sessionActor(maintainer), "fstuned", { reproductionId: "fsdiffer" }));
    expect(refused.code).toBe("validation");
    expect(refused.message).toBe("Not reproduced: 3 of 200 samples have a different outcome in the reproduction. The tier is unchanged.");
    expect((await db.submission.findUniqueOrThrow({ where: { id: "fstuned" } })).reproducedAt).toBeNull();
    const audit = await db.auditLog.findFirstOrThrow({ where: { targetId: "fstuned", action: "submission.reproduction-refused" } });
    expect(audit).toMatchObject({ actorId: maintainer.id });
    expect(audit.details).toEqual({ reproductionId: "fsdiffer", differing: 3, n: 200 });
  });

  it("refuses what cannot be a reproduction, and anyone but a maintainer", async () => {
    expect((await caught(() => checkReproduction(sessionActor(owner), "fstuned", { reproductionId: "fsrepro" }))).code).toBe("forbidden");
    expect((await caught(() => checkReproduction({ ...sessionActor(maintainer), via: "token" }, "fstuned", { reproductionId: "fsrepro" }))).code).toBe("forbidden");
    expect((await caught(() => checkReproduction(sessionActor(maintainer), "fstuned", { reproductionId: "fstuned" }))).message).toMatch(/entry itself/);
    expect((await caught(() => checkReproduction(sessionActor(maintainer), "fstuned", { reproductionId: "nosuchsubmission" }))).message).toMatch(/names no submission/);
    // The owner's own second upload is not a re-run by a maintainer.
    expect((await caught(() => checkReproduction(sessionActor(maintainer), "fstuned", { reproductionId: "fsclient" }))).message).toMatch(/must be a submission you uploaded yourself/);
    // Nobody certifies their own entry.
    await db.submission.update({ where: { id: "fstuned" }, data: { userId: maintainer.id } });
    try {
      const own = await caught(() => checkReproduction(sessionActor(maintainer), "fstuned", { reproductionId: "fsrepro" }));
      expect([own.code, own.message]).toEqual(["forbidden", "You own this entry: another maintainer must reproduce it."]);
    } finally {
      await db.submission.update({ where: { id: "fstuned" }, data: { userId: owner.id } });
    }
    expect((await caught(() => checkReproduction(sessionActor(maintainer), "fsbase", { reproductionId: "fsrepro" }))).message).toMatch(/Only a scored test entry/);
  });

  it("marks the entry reproduced when every outcome matches (who, when), shows it in the API and the filter, and revokes it audited", async () => {
    const result = await checkReproduction(sessionActor(maintainer), "fstuned", { reproductionId: "fsrepro", reason: "re-ran their repository" });
    expect(result).toEqual({ entryId: "fstuned", reproductionId: "fsrepro", tier: "reproduced", n: 200 });
    const row = await db.submission.findUniqueOrThrow({ where: { id: "fstuned" } });
    expect(row).toMatchObject({ reproducedById: maintainer.id, reproductionId: "fsrepro" });
    expect(row.reproducedAt).not.toBeNull();
    expect(await db.auditLog.count({ where: { targetId: "fstuned", action: "submission.reproduce" } })).toBe(1);

    const entry = await callJson(await getEntryApi(new Request("http://127.0.0.1/api/entries/fstuned"), params("fstuned")));
    expect(entry.body).toMatchObject({ provenance: { tier: "reproduced", reproduced_by: maintainer.displayName } });
    expect((await leaderboardRows("?track=open&tier=reproduced")).rows.map((item) => [item.id, item.tier])).toEqual([
      ["fstuned", "reproduced"],
      ["fsbase", "scored"],
    ]);

    expect((await caught(() => revokeReproduction(sessionActor(maintainer), "fstuned", { reason: "no" }))).code).toBe("validation");
    await revokeReproduction(sessionActor(maintainer), "fstuned", { reason: "the re-run used the test split for tuning" });
    expect((await db.submission.findUniqueOrThrow({ where: { id: "fstuned" } })).reproducedAt).toBeNull();
    const revoked = await db.auditLog.findFirstOrThrow({ where: { targetId: "fstuned", action: "submission.unreproduce" } });
    expect(revoked.details).toMatchObject({ reproductionId: "fsrepro", reproducedById: maintainer.id });
    expect((await caught(() => revokeReproduction(sessionActor(maintainer), "fstuned", { reason: "again, twice" }))).code).toBe("conflict");
    expect((await leaderboardRows("?track=open&tier=reproduced")).rows.map((item) => item.id)).toEqual(["fsbase"]);
  });
});
