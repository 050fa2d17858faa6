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
 * Everything public is on the ranking slice (protocol section 12): with the
 * tests' fixed IRC_SLICE_SECRET, 44 of the 56 samples (all but 2, 5, 16, 17,
 * 27, 35, 44, 45, 48, 51, 53, 54; checked against loadSplitGold below). On
 * those 44, by hand: Open Baseline and Late are right on the 23 even ones
 * (0.523), Early on 25 (0.568: the even ones and 1, 3), Strong on 39 (0.886:
 * all but 0, 8, 24, 32, 40).
 *
 * The timeline's test is the view's section 13 reading (McNemar's exact
 * test, p = min(1, 2 P(X <= min(b, c))), X ~ Bin(b + c, 1/2), Holm-adjusted in
 * the family of the one behind among the view's entries). Early against the
 * baseline: b = 2 (samples 1, 3), c = 0, p = 2 / 2^2 = 0.5, and 1 after Holm
 * in the baseline's family {Strong 0.0024939, Early 0.5, Late 1}: not
 * significantly better. Strong against the baseline (still the state of the
 * art): b = 21 (the odd ones), c = 5 (0, 8, 24, 32, 40), p = 0.0024939, 3 x
 * that = 0.0074818 after Holm: a new state of the art, p < 0.01. Late is not
 * above it.
 */

const RELEASE_NAME = "history-int";
let release: LeaderboardFixtureRelease;

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
    { id: "baseopen", userId: system.id, split: "test", publication: "PRIVATE", isBaseline: true, systemName: "Open Baseline", track: "open", predictions: openPredictions(test, (i) => (i % 2 === 0 ? "exact" : "miss")) },
    { id: "early", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Early", track: "open", predictions: openPredictions(test, (i) => (i % 2 === 0 || i <= 5 ? "exact" : "miss")) },
    { id: "strong", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Strong", track: "open", predictions: openPredictions(test, (i) => (i % 8 === 0 ? "miss" : "exact")) },
    { id: "hiddenbest", userId: owner.id, split: "test", publication: "HIDDEN", systemName: "Hidden Best", track: "open", predictions: openPredictions(test, () => "exact") },
    { id: "late", userId: owner.id, split: "test", publication: "PUBLISHED", systemName: "Late", track: "open", predictions: openPredictions(test, (i) => (i % 2 === 0 ? "exact" : "miss")) },
  ]);
  const dates: Record<string, string> = { baseopen: "2026-01-01", early: "2026-02-01", strong: "2026-03-01", hiddenbest: "2026-03-15", late: "2026-04-01" };
  for (const [id, day] of Object.entries(dates)) {
    await db.submission.update({ where: { id }, data: { publishedAt: new Date(`${day}T12:00:00Z`) } });
  }
  await db.reportedResult.create({
    data: { releaseId: release.releaseId, name: "Paper system", track: "open", split: "test", metrics: { exact: 0.5, alias: 0.6 }, source: "A paper, Table 4", publishedOn: new Date("2026-02-15T00:00:00Z") },
  });
});

afterAll(async () => {
  await resetDatabase();
});

describe("GET /api/leaderboard/progress", () => {
  it("works on the 44 ranking-slice samples of the top of this file", async () => {
    const ranking = Array.from((await loadSplitGold(release.releaseId, "test")).slices?.ranking ?? []);
    const leftOut = [2, 5, 16, 17, 27, 35, 44, 45, 48, 51, 53, 54];
    expect(ranking).toEqual(Array.from({ length: 56 }, (_, i) => i).filter((i) => !leftOut.includes(i)));
    const count = (isRight: (i: number) => boolean) => ranking.filter(isRight).length;
    expect([count((i) => i % 2 === 0), count((i) => i % 2 === 0 || i <= 5), count((i) => i % 8 !== 0)]).toEqual([23, 25, 39]);
    expect([count((i) => i % 2 === 1 && i <= 5), count((i) => i % 2 === 1), count((i) => i % 8 === 0)]).toEqual([2, 21, 5]);
  });

  it("marks a state of the art only where the exact McNemar test against the previous one is significant", async () => {
    const { status, body } = await callJson(await getProgressApi(request("/api/leaderboard/progress?track=open")));
    expect(status).toBe(200);
    const progress = body as ProgressBody;
    expect(progress.metric).toBe("alias");
    expect(progress.points.map((point) => [point.system, point.date, point.kind, point.status])).toEqual([
      ["Open Baseline", "2026-01-01", "baseline", "first"],
      ["Early", "2026-02-01", "submission", "not-significant"],
      ["Paper system", "2026-02-15", "reported", "reported"],
      ["Strong", "2026-03-01", "submission", "sota"],
      ["Late", "2026-04-01", "submission", "not-higher"],
    ]);
    const [baseline, early, paper, strong, late] = progress.points;
    // Values are the leaderboard's disclosed ones: rounded to 3 decimals (protocol section 12).
    // On the ranking slice; the paper's number is its own (reported on the whole split).
    expect([baseline?.value, early?.value, paper?.value, strong?.value, late?.value]).toEqual([0.523, 0.568, 0.6, 0.886, 0.523]);
    expect(progress.points.map((point) => point.split_part)).toEqual(["ranking slice", "ranking slice", "whole test split", "ranking slice", "ranking slice"]);
    // A step is the pair's reading, as the leaderboard prints it: verdict, p bucket, difference of the shown values; no b, c or p.
    expect(early?.test).toEqual({ against_id: "baseopen", against: "Open Baseline", verdict: "no significant difference", p_bucket: ">= 0.05", difference: 0.045 });
    expect(strong?.test).toEqual({ against_id: "baseopen", against: "Open Baseline", verdict: "better", p_bucket: "< 0.01", difference: 0.363 });
    expect(paper?.test).toBeNull();
    expect(late?.best).toBe(0.886);
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
    // Public numbers are the ranking slice's (section 12): Strong misses the samples i with i % 8 == 0 among them.
    const ranking = await rankingSlicePositions();
    const misses = ranking.filter((i) => i % 8 === 0).length;
    expect(result?.metrics.find((metric) => metric.type === "alias")?.value).toBe(Number(((ranking.length - misses) / ranking.length).toFixed(3)));
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
