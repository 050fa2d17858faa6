import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parse } from "yaml";
import { expect, getTestPool, runScript, test, waitForBaselines } from "./fixtures";
import { requireLocalUrl } from "../testing/local-database";

/**
 * History and provenance for readers: the progress
 * timeline (chart and table), a release's page, and an entry's export for
 * Hugging Face, downloaded from the entry page. Seeds published entries into
 * the demo release (scripts/dev/seed-leaderboard.ts, real scoring) on spread-out
 * publication dates, and a reported result with its paper's date; removes
 * them afterwards.
 */

const FIXTURE_SOURCE = "Browser-test fixture (history)";
const SCORING_TIMEOUT = 120_000;
const PAPER_DATE = "2026-06-15";

type ApiEntry = { id: string | null; kind: string; system: string; metrics: Record<string, { value: number } | null> };

function seed(): void {
  const databaseUrl = requireLocalUrl("DATABASE_URL");
  const out = runScript("scripts/dev/seed-leaderboard.ts", ["--database-url", databaseUrl, "--reset", "--no-baselines", "--entries", "4", "--resamples", "200", "--json"]);
  const summary = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { release: { name: string; version: string } };
  const dir = mkdtempSync(path.join(tmpdir(), "history-e2e-"));
  try {
    const file = path.join(dir, "reported.json");
    const result = { name: "History paper system", track: "open", split: "test", metrics: { exact: 0.2, alias: 0.25 }, source: FIXTURE_SOURCE, date: PAPER_DATE };
    writeFileSync(file, JSON.stringify({ release: summary.release, results: [result] }));
    runScript("scripts/ops/reported-import.ts", [file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Spreads the seeded entries over four months, so the timeline has steps (the seeder publishes them all now). */
async function spreadPublicationDates(): Promise<void> {
  await getTestPool().query(`
    UPDATE "Submission" s SET "publishedAt" = timestamp '2026-07-01' + (ordered.position * interval '30 days')
      FROM (SELECT s2."id", row_number() OVER (ORDER BY s2."id") AS position
              FROM "Submission" s2 JOIN "User" u ON u."id" = s2."userId"
             WHERE u."email" LIKE '%@leaderboard-seed.invalid' AND s2."publication" = 'PUBLISHED') AS ordered
     WHERE s."id" = ordered."id"`);
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(SCORING_TIMEOUT + 120_000);
  await waitForBaselines(SCORING_TIMEOUT);
  seed();
  await spreadPublicationDates();
});

test.afterAll(async () => {
  runScript("scripts/dev/seed-leaderboard.ts", ["--database-url", requireLocalUrl("DATABASE_URL"), "--remove"]);
  await getTestPool().query(`DELETE FROM "ReportedResult" WHERE "source" = $1`, [FIXTURE_SOURCE]);
});

test("[HISTORY] a reader follows the leaderboard to the timeline and reads its chart and table", async ({ page, request }) => {
  await page.goto("/leaderboard?track=open");
  await page.getByRole("link", { name: "Progress over time" }).click();
  await expect(page).toHaveURL(/\/leaderboard\/progress\?track=open$/);
  await expect(page.getByRole("heading", { level: 1, name: "Progress over time" })).toBeVisible();

  const chart = page.getByRole("group", { name: /Open-world: best published Alias by date/ });
  await expect(chart).toBeVisible();
  // recharts draws the line and one symbol per point.
  await expect(chart.locator(".recharts-scatter-symbol").first()).toBeVisible();

  const table = page.getByRole("table", { name: /best published Alias by date.*\(table\)/ });
  const api = (await (await request.get("/api/leaderboard/progress?track=open")).json()) as { points: { system: string; status: string; date: string }[] };
  expect(api.points.length).toBeGreaterThan(2);
  await expect(table.locator("tbody tr")).toHaveCount(api.points.length);
  // The same data as the API, row by row, in date order.
  const dates = await table.locator("tbody tr td:first-child").allTextContents();
  expect(dates).toEqual(api.points.map((point) => point.date));
  expect(api.points.filter((point) => point.status === "first")).toHaveLength(1);

  const paper = table.locator("tbody tr", { hasText: "History paper system" });
  await expect(paper).toHaveAttribute("data-status", "reported");
  await expect(paper.locator("td").first()).toHaveText(PAPER_DATE);
  await expect(paper).toContainText("Reported");

  // Another view: the closed-world track's timeline.
  await page.getByRole("navigation", { name: "Track" }).getByRole("link", { name: "Closed-world" }).click();
  await expect(page).toHaveURL(/track=closed/);
  await expect(page.getByRole("group", { name: /Closed-world: best published Hit@1 by date/ })).toBeVisible();
});

test("[HISTORY] a reader opens the release page from the dataset page: card, files and checksums, changelog", async ({ page }) => {
  await page.goto("/dataset");
  await page.getByRole("link", { name: "this release's page" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /^Release / })).toBeVisible();
  await expect(page.getByTestId("release-status")).toHaveText(/active/);
  const files = page.getByRole("table", { name: /exact bytes served/ });
  await expect(files.getByRole("row")).toHaveCount(5);
  await expect(files.locator("code").first()).toHaveText(/^[0-9a-f]{64}$/);
  await expect(page.getByRole("heading", { name: "Platform scoring versions" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Re-scoring events" })).toBeVisible();

  await page.getByRole("link", { name: "← All releases" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Releases" })).toBeVisible();
  await expect(page.getByTestId("changelog-entry").first()).toContainText(/imported \d{4}-\d{2}-\d{2} · active/);
});

test("[HISTORY] a reader downloads an entry's model-index block and its numbers are the leaderboard's", async ({ page, request }) => {
  const board = (await (await request.get("/api/leaderboard?track=open&scope=all&limit=1000")).json()) as { entries: ApiEntry[] };
  const entry = board.entries.find((row) => row.kind === "submission" && row.id !== null);
  if (entry?.id == null) throw new Error("no published open-world entry on the leaderboard");
  await page.goto(`/entries/${entry.id}`);
  const downloadPromise = page.waitForEvent("download");
  await page.getByTestId("hub-exports").getByRole("link", { name: /Hugging Face model-index/ }).click();
  const download = await downloadPromise;
  expect(download.suggestedFilename()).toMatch(/-model-index\.yaml$/);
  const file = await download.path();
  const parsed = parse(readFileSync(file, "utf8")) as { "model-index": { name: string; results: { metrics: { type: string; value: number }[] }[] }[] };
  const [model] = parsed["model-index"];
  expect(model?.name).toBe(entry.system);
  const metrics = model?.results[0]?.metrics ?? [];
  expect(metrics.length).toBe(4);
  for (const metric of metrics) {
    expect(metric.value, metric.type).toBe(entry.metrics[metric.type]?.value);
  }
});

test("[HISTORY] a maintainer marks an earlier release superseded; its leaderboard stays readable under a banner", async ({ page, createUser, signInAs }) => {
  const version = "0.9-e2e";
  const dir = mkdtempSync(path.join(tmpdir(), "history-e2e-release-"));
  try {
    // An earlier release beside the active demo release: its copy under another version, imported without --activate.
    for (const name of ["dataset.json", "kb.jsonl", "train.jsonl", "dev.jsonl", "test.jsonl"]) {
      const text = readFileSync(path.join("data", "demo-release", name), "utf8");
      writeFileSync(path.join(dir, name), name === "dataset.json" ? JSON.stringify({ ...(JSON.parse(text) as object), version }) : text);
    }
    runScript("scripts/ops/dataset-import.ts", [dir, "--no-baselines"]);
    const maintainer = await createUser({ label: "history-maintainer", role: "MAINTAINER" });
    await signInAs(maintainer);

    await page.goto(`/dataset/releases/${version}`);
    await expect(page.getByTestId("release-status")).toHaveText("not active");
    const form = page.getByRole("form", { name: "Mark this release superseded" });
    await form.getByLabel("Superseded by").selectOption("1.0");
    await form.getByLabel("Reason (audit log)").fill("the demo release 1.0 replaces it");
    await form.getByRole("button", { name: "Mark superseded" }).click();
    await expect(form.getByRole("status")).toHaveText(`Release ${version} is now superseded by 1.0.`);
    await page.reload();
    await expect(page.getByTestId("superseded-banner")).toContainText("superseded by 1.0");

    await page.goto(`/leaderboard?release=${version}`);
    await expect(page.getByRole("heading", { level: 1, name: `Leaderboard of release ${version}` })).toBeVisible();
    await expect(page.getByTestId("superseded-banner")).toContainText("superseded by 1.0");
    await page.goto("/dataset/releases");
    await expect(page.getByTestId("changelog-entry").filter({ hasText: version })).toContainText("superseded by 1.0");

    await page.goto("/admin/audit");
    const row = page.getByRole("row", { name: new RegExp(`marked the release superseded.*release irc-bench-demo ${version.replace(".", "\\.")}`) });
    await expect(row).toContainText("the demo release 1.0 replaces it");
  } finally {
    rmSync(dir, { recursive: true, force: true });
    await getTestPool().query(`DELETE FROM "DatasetRelease" WHERE "version" = $1`, [version]);
  }
});
