import { expect } from "vitest";
import { db } from "@/lib/platform/db";
import type { Sample } from "@/lib/core/dataset/release-schema";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { independentInterval, independentPublicReport, type ExpectedPublicGroup, type NoiseKey } from "./independent-perturbation";
import { buildGold } from "@/lib/core/scoring/gold";
import { scorePredictions } from "@/lib/core/scoring/score-report";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import { validatePredictionText } from "@/lib/core/scoring/validate-predictions";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import type { TestRelease } from "./release";
import { startRouteServer } from "./route-server";
import { readStoredText } from "./stored-files";
import { checkJsonDigits, checkTextDigits, type Json } from "@/testing/disclosure-digits";
import { sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Checks of protocol section 12's disclosure that need no attack: every
 * public number is the ranking slice's offline report perturbed and rounded
 * as section 12 (v1.3) says (independent-perturbation.ts, not
 * lib/core/disclosure), every owner number the feedback slice's, and nothing any user can
 * fetch names a sample's slice or has more digits than section 12 allows.
 * The expected values are computed here from the offline scorer
 * (lib/core/scoring) on a split made of one slice's samples, with the rounding
 * written out again, not through lib/core/disclosure.
 */

type Owner = { id: string; token: string; userId: string } | null;

const roundRate = (value: number) => Number(value.toFixed(3));
/** The owner's interval: Binomial(n, v) of the shown value alone (section 12). */
const roundedInterval = (shown: number, n: number) => independentInterval(shown, n, false);

/** The offline scorer's report of a stored test file on one slice's samples only. */
async function sliceReport(release: TestRelease, submissionId: string, samples: readonly Sample[]): Promise<ScoreReport> {
  const submission = await db.submission.findUniqueOrThrow({ where: { id: submissionId }, select: { fileSha256: true } });
  const ids = new Set(samples.map((sample) => sample.id));
  const lines = (await readStoredText(submission.fileSha256)).split("\n").filter((line) => line.trim() !== "" && ids.has((JSON.parse(line) as { id: string }).id));
  const gold = buildGold(samples, release.kb);
  const validation = validatePredictionText(`${lines.join("\n")}\n`, { sampleIds: gold.map((record) => record.id), kbQids: release.kb, split: "test" });
  if (!validation.ok) throw new Error(`slice file invalid: ${validation.problems.map((problem) => problem.message).join("; ")}`);
  return scorePredictions({ ...validation, gold, kb: release.kb, split: "test", seed: 42, resamples: 200 }).report;
}

type ExpectedGroup = ExpectedPublicGroup;

type ShownGroup = { n: number; isSuppressed?: boolean; suppressed?: boolean; metrics: Record<string, number | null | undefined> };

function expectGroups(label: string, shown: Record<string, ShownGroup> | undefined, expected: Record<string, ExpectedGroup>): void {
  for (const [name, group] of Object.entries(expected)) {
    const actual = shown?.[name];
    expect(actual, `${label} ${name}`).toBeDefined();
    expect({ n: actual!.n, suppressed: actual!.isSuppressed ?? actual!.suppressed ?? false, metrics: actual!.metrics }, `${label} ${name}`).toEqual(group);
  }
}

const getJson = async (base: string, path: string, token?: string): Promise<Json> => {
  const response = await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  expect(response.status, `${path}: ${response.status}`).toBe(200);
  return (await response.json()) as Json;
};

export async function fidelityChecks(options: { release: TestRelease; feedbackIds: ReadonlySet<string>; publishedIds: readonly string[]; ownerProbe: Owner; minGroupN: number }): Promise<void> {
  const { release, feedbackIds } = options;
  const ranking = release.content.samples.test.filter((sample) => !feedbackIds.has(sample.id));
  const feedback = release.content.samples.test.filter((sample) => feedbackIds.has(sample.id));
  const server = await startRouteServer(3611);
  try {
    const tests = await db.submission.findMany({ where: { id: { in: [...options.publishedIds] }, split: "test" }, select: { id: true, track: true } });
    expect(tests.length).toBeGreaterThan(3);
    const boards = new Map<string, Json>();
    for (const track of ["open", "closed", "unified"]) boards.set(track, await getJson(server.url, `/api/leaderboard?track=${track}&scope=all&limit=100`));
    const exports = new Map<string, Json>();
    for (const track of ["open", "closed"]) exports.set(track, await getJson(server.url, `/api/leaderboard/export?track=${track}&scope=all&format=json`));
    const releaseRow = await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId }, select: { name: true, goldSha256: true } });
    const noiseKey: NoiseKey = { secret: sliceSecretOf(getEnv()), releaseName: releaseRow.name, goldVersion: goldVersionId(releaseGoldOf(releaseRow.goldSha256, "test")!) };
    for (const { id, track } of tests) {
      const report = await sliceReport(release, id, ranking);
      const expected = independentPublicReport(report, noiseKey, id, options.minGroupN);
      const { metrics, ci95 } = expected;
      // The entry API.
      const entry = (await getJson(server.url, `/api/entries/${id}`)) as { score: { n: number; metrics: Json; ci95: Json; by_type: Record<string, ShownGroup>; by_collection: Record<string, ShownGroup> } };
      expect(entry.score.n, `entry ${id}: n is the ranking slice's`).toBe(report.n);
      expect(entry.score.metrics, `entry ${id}`).toEqual(metrics);
      expect(entry.score.ci95, `entry ${id}`).toEqual(ci95);
      expectGroups(`entry ${id} by type`, entry.score.by_type, expected.byType);
      expectGroups(`entry ${id} by collection`, entry.score.by_collection, expected.byCollection);
      // The entry's by-type export: the same numbers.
      const byTypeExport = (await getJson(server.url, `/api/entries/${id}/export?table=by-type&format=json`)) as { rows: Record<string, Json>[] };
      for (const row of byTypeExport.rows) {
        const expectedType = expected.byType[String(row.type)];
        if (expectedType === undefined) continue;
        for (const [key, value] of Object.entries(expectedType.metrics)) expect(row[key], `export ${id} ${String(row.type)} ${key}`).toBe(value);
      }
      // The leaderboard rows (its track's view and the unified one) and the leaderboard export.
      const unifiedKey = track === "open" ? "alias" : "alias_hit@1";
      for (const view of [track, "unified"]) {
        const rows = (boards.get(view) as { entries: { id: string | null; n: number; metrics: Record<string, { value: number; ci95: number[] } | number | null> }[] }).entries;
        const row = rows.find((candidate) => candidate.id === id);
        expect(row, `leaderboard ${view} has ${id}`).toBeDefined();
        expect(row!.n, `leaderboard ${view} ${id} n`).toBe(report.n);
        for (const [key, value] of Object.entries(row!.metrics)) {
          const shown = typeof value === "object" && value !== null ? value.value : value;
          const expectedKey = view === "unified" ? unifiedKey : key;
          if (shown !== null && metrics[expectedKey] !== undefined) expect(shown, `leaderboard ${view} ${id} ${key}`).toBe(metrics[expectedKey]);
        }
      }
      const exportRows = (exports.get(track) as { rows: Record<string, Json>[] }).rows.filter((row) => JSON.stringify(row).includes(id));
      expect(exportRows.length, `leaderboard export has ${id}`).toBe(1);
      for (const [key, value] of Object.entries(metrics)) if (key in exportRows[0]!) expect(exportRows[0]![key], `export ${id} ${key}`).toBe(value);
    }
    // The owner of an unpublished file: the feedback slice, rounded, intervals from the shown value and n, no groups, verdicts only.
    if (options.ownerProbe !== null) {
      const report = await sliceReport(release, options.ownerProbe.id, feedback);
      const view = (await getJson(server.url, `/api/submissions/${options.ownerProbe.id}`, options.ownerProbe.token)) as {
        score: { report: { n: number; metrics: Json; ci95: Json; by_type: Json; by_collection: Json; disclosure: { slice: string } } };
        comparisons: Record<string, Json>[];
      };
      const metrics = Object.fromEntries(Object.entries(report.metrics).map(([key, value]) => [key, roundRate(value as number)]));
      expect(view.score.report.n).toBe(report.n);
      expect(view.score.report.metrics).toEqual(metrics);
      expect(view.score.report.ci95).toEqual(Object.fromEntries(Object.entries(metrics).map(([key, value]) => [key, roundedInterval(value, report.n)])));
      expect(view.score.report.by_type).toBeNull();
      expect(view.score.report.by_collection).toBeNull();
      expect(view.comparisons.length).toBeGreaterThan(0);
      for (const comparison of view.comparisons) {
        expect(Object.keys(comparison)).not.toEqual(expect.arrayContaining(["b"]));
        for (const key of ["b", "c", "chi2", "p", "pExact", "pHolm"]) expect(comparison, key).not.toHaveProperty(key);
      }
    }
  } finally {
    await server.close();
  }
}

/**
 * Fetches every API route and export as each kind of user, over real HTTP
 * (the app's own route handlers), and checks every body: no test sample id
 * at all (the ids are public in the download, but no answer may tie one to a
 * slice, an outcome or anything per sample), no word of a slice beside an
 * id, and for everyone but a maintainer no number with more digits than
 * section 12 allows and no exact comparison counts.
 */
export async function crawlAsEveryone(options: { release: TestRelease; feedbackIds: ReadonlySet<string>; publishedIds: readonly string[]; ownerProbe: Owner; maintainer: TestUser }): Promise<void> {
  const { release } = options;
  const testIds = new Set(release.content.samples.test.map((sample) => sample.id));
  const idPattern = /[A-Za-z][\w-]*-\d+/g;
  const published = await db.submission.findMany({ where: { id: { in: [...options.publishedIds] } }, select: { id: true, userId: true } });
  const publishedOwner = await db.user.findUniqueOrThrow({ where: { id: published[0]!.userId }, select: { id: true, email: true, displayName: true, role: true } });
  const users: { name: string; token?: string; isMaintainer: boolean }[] = [
    { name: "anonymous", isMaintainer: false },
    { name: "owner of an unpublished test file", token: options.ownerProbe?.token, isMaintainer: false },
    { name: "owner of a published entry", token: (await createApiToken({ actor: sessionActor(publishedOwner), name: "crawl" })).token, isMaintainer: false },
    { name: "maintainer", token: (await createApiToken({ actor: sessionActor(options.maintainer), name: "crawl" })).token, isMaintainer: true },
  ];
  const types = ["", ...new Set(release.content.entities.map((entity) => entity.type))];
  const paths: string[] = ["/api/entries", "/api/openapi.json", "/api/health", "/api/me", "/api/quota", "/api/quota/ledger", "/api/submissions", "/api/admin/submissions", "/api/public-page?path=/"];
  // The public log (docs/public-log.md): its records carry public numbers as pages print them, never counts or membership.
  paths.push("/api/public-log", "/api/public-log/head", "/api/public-log/key", ...options.publishedIds.map((id) => `/api/public-log?entry=${id}`));
  for (const track of ["open", "closed", "unified"]) {
    paths.push(`/api/leaderboard/progress?track=${track}`);
    for (const type of types) {
      const typePart = type === "" ? "" : `&type=${encodeURIComponent(type)}`;
      paths.push(`/api/leaderboard?track=${track}${typePart}&scope=all`, `/api/leaderboard?track=${track}${typePart}`);
      for (const format of ["csv", "json", "tex"]) paths.push(`/api/leaderboard/export?track=${track}${typePart}&scope=all&format=${format}`);
    }
  }
  for (const id of options.publishedIds) {
    paths.push(`/api/entries/${id}`, `/api/submissions/${id}`, `/api/submissions/${id}/analysis`, `/api/submissions/${id}/samples`);
    for (const table of ["by-type", "by-collection"]) for (const format of ["csv", "json", "tex"]) paths.push(`/api/entries/${id}/export?table=${table}&format=${format}`);
    for (const format of ["model-index", "eval-results", "pwc"]) paths.push(`/api/entries/${id}/export?format=${format}`);
  }
  if (options.ownerProbe !== null) {
    const id = options.ownerProbe.id;
    paths.push(`/api/submissions/${id}`, `/api/submissions/${id}/analysis`, `/api/submissions/${id}/samples`, `/api/entries/${id}`);
  }
  const server = await startRouteServer(3612);
  const problems: string[] = [];
  let fetched = 0;
  try {
    for (const user of users) {
      for (const path of paths) {
        const response = await fetch(`${server.url}${path}`, { headers: user.token ? { authorization: `Bearer ${user.token}` } : {} });
        const body = await response.text();
        fetched += 1;
        const where = `${user.name} GET ${path} (${response.status})`;
        const named = (body.match(idPattern) ?? []).filter((token) => testIds.has(token));
        if (named.length > 0) problems.push(`${where}: names test samples ${[...new Set(named)].slice(0, 3).join(", ")}`);
        if (user.isMaintainer) continue;
        const contentType = response.headers.get("content-type") ?? "";
        if (contentType.includes("jsonl")) {
          for (const line of body.split("\n").filter((text) => text !== "")) checkJsonDigits(where, JSON.parse(line) as Json, problems, { coarseBelowN: 1000 });
          checkTextDigits(where, body, problems, true);
        } else if (contentType.includes("json")) checkJsonDigits(where, JSON.parse(body) as Json, problems, { coarseBelowN: 1000 });
        else checkTextDigits(where, body, problems, path.includes("format=tex"));
      }
    }
  } finally {
    await server.close();
  }
  console.log(`[crawl] ${fetched} responses, ${problems.length} problems`);
  expect(problems).toEqual([]);
}
