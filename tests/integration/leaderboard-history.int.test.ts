import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import { GET as getEntryExport } from "@/app/api/entries/[id]/export/route";
import { GET as getProgressApi } from "@/app/api/leaderboard/progress/route";
import { GET as getLeaderboardApi } from "@/app/api/leaderboard/route";
import { db } from "@/lib/platform/db";
import { formatDecimalInterval } from "@/lib/core/format/numbers";
import { publicOrigin, publicUrl } from "@/lib/platform/public-url";
import { setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { callJson, importLeaderboardRelease, openPredictions, storeScoredEntries, type LeaderboardFixtureRelease } from "@/testing/leaderboard/integration-fixtures";
import { assertTestDatabase } from "@/testing/local-database";
import { everyEvalEverViolations } from "@/testing/schemas/every-eval-ever";
import { resetDatabase } from "./support/reset";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import { exactCounts, expectedView, type FixtureModelEntry } from "./support/independent-leaderboard";
import type { NoiseKey } from "./support/independent-perturbation";

/**
 * The progress timeline (GET /api/leaderboard/progress) and the exports for
 * other hubs (GET /api/entries/[id]/export?format=model-index|eval-results|pwc|every-eval-ever)
 * against a real PostgreSQL, on 56 test samples. Who is right where (sample i):
 *
 *   Open Baseline  2026-01-01  i even                          28 right (0.5)
 *   Early          2026-02-01  i even, or i in {1, 3, 5}       31 right (0.554)
 *   Paper system   2026-02-15  reported, 0.6
 *   Strong         2026-03-01  all but i % 8 == 0              49 right (0.875)
 *   Hidden Best    2026-03-15  all, HIDDEN: never shown
 *   Late           2026-04-01  i even                          28 right (0.5)
 *
 * Everything public is on the ranking slice (protocol section 12, v1.3):
 * slices are keyed by the gold entity (samples 2k and 2k + 1 share one), so
 * with the tests' fixed IRC_SLICE_SECRET the ranking slice is 40 of the 56
 * samples (all but 0-3, 8, 9, 18, 19, 24, 25, 40, 41, 44, 45, 54, 55;
 * checked against loadSplitGold below). Exact counts on those 40, by hand:
 * Open Baseline and Late are right on the 20 even ones (0.5), Early on 21
 * (the even ones and 5), Strong on 37 (all but 16, 32, 48). Exact pairs
 * against the baseline: Early b = 1 (sample 5), c = 0; Strong b = 20 (the
 * odd ones), c = 3 (16, 32, 48), McNemar's exact p = 0.00026.
 *
 * The public sees none of these counts: each is perturbed by seeded noise
 * (section 12; about 4.5 samples, part of it keyed by the gold version id,
 * an HMAC under each checkout's NEXTAUTH_SECRET) before it is rounded, and
 * every order, best and verdict is taken from the perturbed counts; a pair's
 * b', c' from the difference d of the two shown counts and the perturbed
 * discordant total max(|d|, b + c + z). So the values, the steps' verdicts
 * and which entry is a state of the art are worked out at run time from the
 * exact outcomes (support/independent-leaderboard.ts, written from the
 * protocol, not lib/core). On 40 samples the noise decides a lot: Early,
 * one sample better than the baseline, may show below it (not higher), above
 * it and not significantly better, or, when the two shown counts are far
 * enough apart, significantly better (m = 1, so b' = d and c' = 0) and then
 * the state of the art that Strong is tested against; Late, identical to the
 * baseline, shows its own value and may show above Early. Against the
 * baseline, Strong's 17-sample lead reads as significantly better for almost
 * every draw; against a noisy Early it may not.
 *
 * The timeline's test is the view's section 13 reading (McNemar's exact
 * test, p = min(1, 2 P(X <= min(b', c'))), X ~ Bin(b' + c', 1/2),
 * Holm-adjusted in the family of the one behind among the view's entries).
 */

const RELEASE_NAME = "history-int";
let release: LeaderboardFixtureRelease;
let noise: NoiseKey;
/** The ranking slice's positions (gold order): every public number is of these. */
let positions: number[];

// Who is right where, by gold-order index: the predictions below are made from these, and the expectations worked out from them.
const MODEL: FixtureModelEntry[] = [
  { id: "baseopen", system: "Open Baseline", isBaseline: true, track: "open", tier: (i) => (i % 2 === 0 ? 1 : 0) },
  { id: "early", system: "Early", isBaseline: false, track: "open", tier: (i) => (i % 2 === 0 || i <= 5 ? 1 : 0) },
  { id: "strong", system: "Strong", isBaseline: false, track: "open", tier: (i) => (i % 8 === 0 ? 0 : 1) },
  { id: "late", system: "Late", isBaseline: false, track: "open", tier: (i) => (i % 2 === 0 ? 1 : 0) },
];
const isExact = (id: string) => (i: number) => {
  const entry = MODEL.find((candidate) => candidate.id === id);
  return entry?.track === "open" && entry.tier(i) === 1 ? ("exact" as const) : ("miss" as const);
};

function request(path: string): Request {
  return new Request(`http://127.0.0.1${path}`);
}

function params(id: string) {
  return { params: Promise.resolve({ id }) };
}

type ProgressBody = {
  track: string;
  metric: string;
  points: { id: string; system: string; kind: string; split_part: string; date: string; value: number; status: string; best: number | null; test: { against_id: string; against: string; verdict: string; p_bucket: string; difference: number } | null }[];
  undated_reported: unknown[];
};

beforeAll(async () => {
  assertTestDatabase();
  setLeaderboardStampTtl(0);
  await resetDatabase();
  release = await importLeaderboardRelease(RELEASE_NAME, 56);
  const owner = await db.user.create({ data: { email: "owner@history-int.invalid", displayName: "Team History" } });
  const system = await db.user.create({ data: { email: "system@history-int.invalid", displayName: "IRC-Bench maintainers", isSystem: true } });
  const test = release.gold.test;
  await storeScoredEntries(release, [
    { id: "baseopen", userId: system.id, split: "test", publication: "PRIVATE", isBaseline: true, systemName: "Open Baseline", track: "open", predictions: openPredictions(test, isExact("baseopen")) },
    { id: "early", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Early", track: "open", predictions: openPredictions(test, isExact("early")) },
    { id: "strong", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Strong", track: "open", predictions: openPredictions(test, isExact("strong")) },
    { id: "hiddenbest", userId: owner.id, split: "test", publication: "HIDDEN", systemName: "Hidden Best", track: "open", predictions: openPredictions(test, () => "exact") },
    { id: "late", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Late", track: "open", predictions: openPredictions(test, isExact("late")) },
  ]);
  const dates: Record<string, string> = { baseopen: "2026-01-01", early: "2026-02-01", strong: "2026-03-01", hiddenbest: "2026-03-15", late: "2026-04-01" };
  for (const [id, day] of Object.entries(dates)) {
    await db.submission.update({ where: { id }, data: { publishedAt: new Date(`${day}T12:00:00Z`) } });
  }
  await db.reportedResult.create({
    data: { releaseId: release.releaseId, name: "Paper system", track: "open", split: "test", metrics: { exact: 0.5, alias: 0.6 }, source: "A paper, Table 4", publishedOn: new Date("2026-02-15T00:00:00Z") },
  });
  const gold = (await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId }, select: { goldSha256: true } })).goldSha256;
  noise = { secret: sliceSecretOf(getEnv()), releaseName: RELEASE_NAME, goldVersion: goldVersionId(releaseGoldOf(gold, "test")!) };
  positions = Array.from((await loadSplitGold(release.releaseId, "test")).slices?.ranking ?? []);
});

type ExpectedPoint = { id: string; system: string; kind: string; value: number; status: string; best: number | null; test: Record<string, unknown> | null };

/**
 * The timeline's rule (docs/leaderboard.md), written again for this file's points, which all fall on different days:
 * the first tested entry opens it; a later one whose perturbed count over n (section 12: before rounding) is not above the
 * state of the art's is "not-higher"; one above
 * it is the new state of the art when the view's section 13 reading of the pair says "better", else "not-significant";
 * the paper is drawn and never tested; the line follows the highest tested value.
 */
function expectedTimeline(): ExpectedPoint[] {
  const open = expectedView(noise, MODEL, positions, "open");
  const dated = [
    { id: "baseopen", kind: "baseline" },
    { id: "early", kind: "submission" },
    { id: "paper", kind: "reported" },
    { id: "strong", kind: "submission" },
    { id: "late", kind: "submission" },
  ];
  const points: ExpectedPoint[] = [];
  let sota: string | null = null;
  let best: number | null = null;
  for (const { id, kind } of dated) {
    if (kind === "reported") {
      points.push({ id, system: "Paper system", kind, value: 0.6, status: "reported", best, test: null });
      continue;
    }
    const system = MODEL.find((entry) => entry.id === id)!.system;
    const value = open.value(id);
    if (sota === null) {
      sota = id;
      best = value;
      points.push({ id, system, kind, value, status: "first", best, test: null });
      continue;
    }
    if (open.estimate(id) <= open.estimate(sota)) {
      points.push({ id, system, kind, value, status: "not-higher", best, test: null });
      continue;
    }
    best = Math.max(best ?? value, value);
    const reading = open.reading(id, sota);
    const test = { against_id: sota, against: MODEL.find((entry) => entry.id === sota)!.system, ...reading };
    const isBetter = reading.verdict === "better";
    if (isBetter) sota = id;
    points.push({ id, system, kind, value, status: isBetter ? "sota" : "not-significant", best, test });
  }
  return points;
}

afterAll(async () => {
  await resetDatabase();
});

describe("GET /api/leaderboard/progress", () => {
  it("works on the 40 ranking-slice samples of the top of this file", async () => {
    const ranking = Array.from((await loadSplitGold(release.releaseId, "test")).slices?.ranking ?? []);
    const leftOut = [0, 1, 2, 3, 8, 9, 18, 19, 24, 25, 40, 41, 44, 45, 54, 55];
    expect(ranking).toEqual(Array.from({ length: 56 }, (_, i) => i).filter((i) => !leftOut.includes(i)));
    expect(positions).toEqual(ranking);
    // Section 12 (v1.3): keyed by the gold entity, both samples of an entity are in the same slice.
    const qidsOf = (indices: readonly number[]) => new Set(indices.map((i) => release.gold.test[i]?.qid));
    expect([...qidsOf(ranking)].filter((qid) => qidsOf(leftOut).has(qid))).toEqual([]);
    const count = (isRight: (i: number) => boolean) => ranking.filter(isRight).length;
    expect([count((i) => i % 2 === 0), count((i) => i % 2 === 0 || i <= 5), count((i) => i % 8 !== 0)]).toEqual([20, 21, 37]);
    expect([count((i) => i % 2 === 1 && i <= 5), count((i) => i % 2 === 1), count((i) => i % 8 === 0)]).toEqual([1, 20, 3]);
    // The model the expectations are worked out from gives the same exact counts.
    expect(MODEL.map((entry) => exactCounts(entry, ranking).alias)).toEqual([20, 21, 37, 20]);
  });

  it("marks a state of the art only where the exact McNemar test against the previous one is significant", async () => {
    const { status, body } = await callJson(await getProgressApi(request("/api/leaderboard/progress?track=open")));
    expect(status).toBe(200);
    const progress = body as ProgressBody;
    expect(progress.metric).toBe("alias");
    const expectedPoints = expectedTimeline();
    const dates: Record<string, string> = { baseopen: "2026-01-01", early: "2026-02-01", paper: "2026-02-15", strong: "2026-03-01", late: "2026-04-01" };
    expect(progress.points.map((point) => [point.system, point.date, point.kind, point.status])).toEqual(expectedPoints.map((point) => [point.system, dates[point.id], point.kind, point.status]));
    const [baseline, early, paper, strong, late] = progress.points;
    expect([baseline?.status, paper?.status]).toEqual(["first", "reported"]);
    // Values are the leaderboard's disclosed ones: perturbed counts rounded to 3 decimals (protocol section 12).
    // On the ranking slice; the paper's number is its own (reported on the whole split).
    expect([baseline?.value, early?.value, paper?.value, strong?.value, late?.value]).toEqual(expectedPoints.map((point) => point.value));
    expect(progress.points.map((point) => point.split_part)).toEqual(["ranking slice", "ranking slice", "whole test split", "ranking slice", "ranking slice"]);
    // A step is the pair's reading, as the leaderboard prints it: verdict, p bucket, difference of the shown values; no b, c or p.
    expect(progress.points.map((point) => point.test)).toEqual(expectedPoints.map((point) => point.test));
    expect(paper?.test).toBeNull();
    // A state of the art only where the reading against the previous one is "better": every "sota" step says so, every "not-significant" one does not.
    for (const point of progress.points) {
      if (point.status === "sota") expect(point.test?.verdict).toBe("better");
      if (point.status === "not-significant") expect(point.test?.verdict).not.toBe("better");
    }
    expect(progress.points.map((point) => point.best)).toEqual(expectedPoints.map((point) => point.best));
    expect(late?.best).toBe(Math.max(...expectedPoints.filter((point) => point.kind !== "reported").map((point) => point.value)));
  });

  it("answers 422 naming a bad parameter, and shows no timeline for a type too small to show (section 12)", async () => {
    const bad = await callJson(await getProgressApi(request("/api/leaderboard/progress?track=sideways")));
    expect(bad.status).toBe(422);
    expect(bad.text).toContain("track");
    const unknown = await callJson(await getProgressApi(request("/api/leaderboard/progress?track=open&scope=all")));
    expect(unknown.status).toBe(422);
    // 56 samples over seven types: every type is below min_group_n (30).
    const person = await callJson(await getProgressApi(request("/api/leaderboard/progress?track=open&type=person")));
    expect(person.status).toBe(200);
    const body = person.body as ProgressBody & { unavailable: string | null };
    expect(body.unavailable).toMatch(/^Person has \d+ test samples, fewer than the release's minimum group size of 30/);
    expect(body.points).toEqual([]);
  });
});

describe("GET /api/entries/[id]/export for other hubs", () => {
  async function leaderboardRow(system: string) {
    const { body } = await callJson(await getLeaderboardApi(request("/api/leaderboard?track=open&scope=all")));
    const rows = (body as { entries: { system: string; n: number; metrics: Record<string, { value: number; ci95: [number, number] | null } | null> }[] }).entries;
    const row = rows.find((candidate) => candidate.system === system);
    if (row === undefined) throw new Error(`${system} is not on the leaderboard`);
    return row;
  }

  /** The gold-order positions of the test split's ranking slice, the samples every public number is of. */
  async function rankingSlicePositions(): Promise<number[]> {
    const { slices } = await loadSplitGold(release.releaseId, "test");
    if (slices === null) throw new Error("the test split has no slices");
    return [...slices.ranking];
  }

  it("gives a model-index block with the leaderboard's numbers, as a YAML download", async () => {
    const response = await getEntryExport(request("/api/entries/strong/export?format=model-index"), params("strong"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/yaml; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="history-int-1.0-strong-model-index.yaml"');
    const parsed = parse(await response.text()) as { "model-index": { name: string; results: { dataset: { split: string; revision: string }; metrics: { type: string; value: number }[]; source: { url: string } }[] }[] };
    const row = await leaderboardRow("Strong");
    const [model] = parsed["model-index"];
    expect(model?.name).toBe("Strong");
    const [result] = model?.results ?? [];
    expect(result?.dataset).toMatchObject({ split: "test", revision: "1.0" });
    // On the configured public URL (lib/platform/public-url.ts), not the request's origin.
    expect(result?.source.url).toBe(publicUrl("/entries/strong"));
    for (const metric of result?.metrics ?? []) {
      expect(metric.value, metric.type).toBe(row.metrics[metric.type]?.value);
    }
    // Public numbers are the ranking slice's (section 12): Strong misses the samples i with i % 8 == 0 among them (16, 32, 48),
    // and its count is perturbed before it is rounded.
    const ranking = await rankingSlicePositions();
    const misses = ranking.filter((i) => i % 8 === 0).length;
    expect(ranking.length - misses).toBe(37);
    const shown = expectedView(noise, MODEL, ranking, "open").overall("strong");
    for (const metric of result?.metrics ?? []) expect(metric.value, metric.type).toBe(shown.values[metric.type]);
    expect(result?.metrics.find((metric) => metric.type === "alias")?.value).toBe(shown.values.alias);
  });

  it("gives .eval_results items with a Hub dataset id, a quoted date and the interval in their notes", async () => {
    const response = await getEntryExport(request("/api/entries/strong/export?format=eval-results"), params("strong"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="history-int-1.0-strong.yaml"');
    const text = await response.text();
    // Quoted: PyYAML (huggingface_hub's reader, YAML 1.1) reads an unquoted 2026-03-01 as a date.
    expect(text).toContain('date: "2026-03-01"');
    const items = parse(text, { version: "1.1" }) as { dataset: { id: string; task_id: string }; value: number; date: unknown; notes: string }[];
    const row = await leaderboardRow("Strong");
    const alias = items.find((item) => item.dataset.task_id === "open_alias");
    expect(alias?.value).toBe(row.metrics.alias?.value);
    expect(alias?.date).toBe("2026-03-01");
    // HF_DATASET_ID is unset in the tests: the release name under the irc-bench namespace.
    expect(alias?.dataset.id).toBe("irc-bench/history-int");
    expect(alias?.notes).toContain(`95% CI ${formatDecimalInterval(row.metrics.alias?.ci95)}`);
    expect(alias?.notes).toContain(`the ranking slice of the test split (${row.n} samples)`);
  });

  it("gives an Every Eval Ever record that the 0.3.0 schema accepts, with the leaderboard's values, intervals and n", async () => {
    const response = await getEntryExport(request("/api/entries/strong/export?format=every-eval-ever"), params("strong"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="history-int-1.0-strong-every-eval-ever.json"');
    const document: unknown = JSON.parse(await response.text());
    expect(everyEvalEverViolations(document)).toEqual([]);
    type Result = {
      evaluation_result_id: string;
      source_data: { hf_repo: string; hf_split: string; samples_number: number };
      metric_config: { lower_is_better: boolean };
      score_details: { score: number; uncertainty: { confidence_interval?: { lower: number; upper: number; method: string }; num_samples: number; num_bootstrap_samples?: number } };
    };
    const record = document as { source_metadata: { source_organization_url: string; additional_details: { entry_url: string } }; evaluation_results: Result[] };
    expect(record.source_metadata.source_organization_url).toBe(publicOrigin());
    expect(record.source_metadata.additional_details.entry_url).toBe(publicUrl("/entries/strong"));
    const row = await leaderboardRow("Strong");
    expect(record.evaluation_results.map((result) => result.evaluation_result_id)).toEqual(["open_exact", "open_alias", "open_contain", "open_jaccard"]);
    for (const result of record.evaluation_results) {
      const key = result.evaluation_result_id.replace(/^open_/, "");
      const shown = row.metrics[key];
      expect(result.score_details.score, key).toBe(shown?.value);
      expect(result.metric_config.lower_is_better).toBe(false);
      expect([result.score_details.uncertainty.confidence_interval?.lower, result.score_details.uncertainty.confidence_interval?.upper], key).toEqual(shown?.ci95);
      // The ranking slice's n (section 12), a part of the 56 test samples; no finite bootstrap made the interval.
      expect(result.score_details.uncertainty.num_samples).toBe(row.n);
      expect(result.score_details.uncertainty).not.toHaveProperty("num_bootstrap_samples");
      expect(result.score_details.uncertainty.confidence_interval?.method).toContain("quantiles of Binomial(n, v) plus the public noise");
      expect(result.source_data).toMatchObject({ hf_repo: "irc-bench/history-int", hf_split: "test", samples_number: row.n });
    }
    expect(row.n).toBe((await rankingSlicePositions()).length);
  });

  it("gives a Papers-with-Code-style JSON with the same numbers", async () => {
    const response = await getEntryExport(request("/api/entries/early/export?format=pwc"), params("early"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/json; charset=utf-8");
    const body = JSON.parse(await response.text()) as { datasets: { sota: { rows: { model_name: string; metrics: Record<string, number> }[] } }[] };
    const [row] = body.datasets[0]?.sota.rows ?? [];
    expect(row?.model_name).toBe("Early");
    expect(row?.metrics.Alias).toBe((await leaderboardRow("Early")).metrics.alias?.value);
  });

  it("refuses a hidden entry like an unknown one, and a table format without its table", async () => {
    expect((await getEntryExport(request("/api/entries/hiddenbest/export?format=model-index"), params("hiddenbest"))).status).toBe(404);
    const missing = await callJson(await getEntryExport(request("/api/entries/strong/export?format=csv"), params("strong")));
    expect(missing.status).toBe(422);
    expect(missing.text).toContain("table");
    const extra = await callJson(await getEntryExport(request("/api/entries/strong/export?format=pwc&table=by-type"), params("strong")));
    expect(extra.status).toBe(422);
  });

  it("refuses hub files for a stale score (made by another scorer version), which would claim the current release's revision", async () => {
    const score = await db.score.findUniqueOrThrow({ where: { submissionId: "early" }, select: { scorerVersion: true } });
    await db.score.update({ where: { submissionId: "early" }, data: { scorerVersion: "0.9.0" } });
    try {
      for (const format of ["model-index", "eval-results", "pwc", "every-eval-ever"]) {
        const stale = await callJson(await getEntryExport(request(`/api/entries/early/export?format=${format}`), params("early")));
        expect([stale.status, stale.text]).toEqual([409, expect.stringContaining("waits to be re-scored")]);
      }
      // The entry's own tables stay available: they say which scorer made them.
      expect((await getEntryExport(request("/api/entries/early/export?format=csv&table=by-type"), params("early"))).status).toBe(200);
    } finally {
      await db.score.update({ where: { submissionId: "early" }, data: { scorerVersion: score.scorerVersion } });
    }
  });
});
