import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Locator, Page } from "@playwright/test";
import { parseCsv } from "../testing/parse-csv";
import { expect, getTestPool, test, runScript } from "./fixtures";
import { requireLocalUrl } from "../testing/local-database";

/**
 * The public leaderboard journey: sort, filter, switch entity type, open an
 * entry, compare two entries, download a table. Seeding goes through
 * scripts/dev/seed-leaderboard.ts (the real lib/core/scoring code, in its own process:
 * Playwright cannot import server-only modules) into the active release, plus
 * one reported result; everything seeded is removed afterwards.
 */

const FIXTURE_SOURCE = "Browser-test fixture";
const ENTRIES = 14;

function seedLeaderboard(): { release: { name: string; version: string } } {
  const databaseUrl = requireLocalUrl("DATABASE_URL");
  // No synthetic baselines: the active release's own baselines stay the only ones.
  const out = runScript("scripts/dev/seed-leaderboard.ts", ["--database-url", databaseUrl, "--reset", "--no-baselines", "--entries", String(ENTRIES), "--resamples", "300", "--json"]);
  const summary = JSON.parse(out.trim().split("\n").at(-1) ?? "{}") as { release: { name: string; version: string } };
  const dir = mkdtempSync(path.join(tmpdir(), "leaderboard-e2e-"));
  try {
    const file = path.join(dir, "reported.json");
    writeFileSync(
      file,
      JSON.stringify({
        release: summary.release,
        results: [{ name: "Fixture paper system", track: "open", split: "test", metrics: { exact: 0.2, alias: 0.25, contain: 0.3, jaccard: 0.35 }, source: FIXTURE_SOURCE }],
      }),
    );
    runScript("scripts/ops/reported-import.ts", [file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return summary;
}

/** The number at the start of each cell of a column ("38.9 [37.5, 40.3]" -> 38.9), for rows that have one. */
async function columnValues(table: Locator, column: string): Promise<number[]> {
  const texts = await table.locator(`tbody [data-column="${column}"]`).allTextContents();
  return texts.map((text) => Number.parseFloat(text)).filter((value) => Number.isFinite(value));
}

function isOrdered(values: number[], direction: "asc" | "desc"): boolean {
  return values.every((value, index) => index === 0 || (direction === "desc" ? (values[index - 1] ?? 0) >= value : (values[index - 1] ?? 0) <= value));
}

function leaderboardTable(page: Page): Locator {
  return page.getByRole("table", { name: /leaderboard (of|on) / });
}

test.describe.configure({ mode: "serial" });

test.beforeAll(() => {
  seedLeaderboard();
});

test.afterAll(async () => {
  runScript("scripts/dev/seed-leaderboard.ts", ["--database-url", requireLocalUrl("DATABASE_URL"), "--remove"]);
  await getTestPool().query(`DELETE FROM "ReportedResult" WHERE "source" = $1`, [FIXTURE_SOURCE]);
});

test("[LEADERBOARD] the leaderboard shows entries with intervals, reported rows and its rank rule", async ({ page }) => {
  const response = await page.goto("/leaderboard");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1, name: "Leaderboard" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Leaderboard" })).toBeVisible();
  const table = leaderboardTable(page);
  await expect(table.getByRole("rowheader", { name: /Kestrel-1/ })).toBeVisible();
  const kestrel = table.locator("tbody tr", { has: page.getByRole("link", { name: "Kestrel-1", exact: true }) });
  await expect(kestrel.locator('[data-column="alias"]')).toHaveText(/^\d+\.\d\[\d+\.\d, \d+\.\d\]$/);
  const reported = table.locator('tbody tr[data-kind="reported"]', { hasText: "Fixture paper system" });
  await expect(reported).toContainText("reported");
  await expect(reported.locator('[data-column="alias"]')).toHaveText("25.0");
  await expect(reported.locator('[data-column="rank"]')).toHaveText("–");
  await page.getByText("How to read this table").click();
  await expect(page.getByText(/An entry's rank interval is \[1 \+ the number of entries significantly better than it, N − the number of entries it is significantly better than\], N the entries ranked in the view: McNemar's exact test/)).toBeVisible();
});

test("[LEADERBOARD] sorting a column orders the rows, with aria-sort and the keyboard", async ({ page }) => {
  await page.goto("/leaderboard?track=open");
  const table = leaderboardTable(page);
  const settled = page.getByText(/^Showing \d+ of \d+ rows/);
  const exactHeader = table.getByRole("columnheader", { name: /^Exact/ });
  await expect(table.getByRole("columnheader", { name: /^Alias/ })).toHaveAttribute("aria-sort", "descending");
  await exactHeader.getByRole("link").click();
  await expect(exactHeader).toHaveAttribute("aria-sort", "descending");
  await expect(page).toHaveURL(/[?&]sort=exact&dir=desc/);
  await expect(settled).toBeVisible();
  const descending = await columnValues(table, "exact");
  expect(descending.length).toBeGreaterThan(5);
  expect(isOrdered(descending, "desc")).toBe(true);

  await exactHeader.getByRole("link").focus();
  await page.keyboard.press("Enter");
  await expect(exactHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(page).toHaveURL(/[?&]sort=exact&dir=asc/);
  await expect(settled).toBeVisible();
  expect(isOrdered(await columnValues(table, "exact"), "asc")).toBe(true);

  await table.getByRole("columnheader", { name: /^System/ }).getByRole("link").click();
  await expect(page).toHaveURL(/[?&]sort=system&dir=asc/);
  await expect(settled).toBeVisible();
  // The system's name links to its entry; the "paper · code" links under it (from the fact sheet) are not names.
  const names = await table.locator('tbody [data-column="system"] a[href^="/entries/"]').allTextContents();
  expect(names.length).toBeGreaterThan(5);
  expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, "en")));
});

test("[LEADERBOARD] filters narrow the rows and stay in the URL", async ({ page }) => {
  await page.goto("/leaderboard?track=open");
  const table = leaderboardTable(page);
  const rowCount = await table.locator("tbody tr").count();
  // The filters follow the table, collapsed until a reader opens them.
  await page.getByTestId("table-filters").locator("summary").click();
  await page.getByLabel("System or team").fill("kestrel");
  await expect(table.locator("tbody tr")).toHaveCount(1);
  await expect(table.locator("tbody tr").first()).toContainText("Kestrel-1");
  await expect(page.getByText(`Showing 1 of ${rowCount} rows`)).toBeVisible();
  await expect(page).toHaveURL(/[?&]q=kestrel/);

  await page.getByRole("link", { name: "Clear filters" }).click();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await page.getByLabel("Entries").selectOption("submissions");
  await page.getByLabel("Reported results").selectOption("hide");
  await expect(table.locator('tbody tr[data-kind="reported"]')).toHaveCount(0);
  await expect(table.locator('tbody tr[data-kind="baseline"]')).toHaveCount(0);
  await expect(table.locator('tbody tr[data-kind="submission"]').first()).toBeVisible();

  await page.getByLabel("At least (parameters)").fill("100T");
  await expect(table.getByText("No row matches these filters.")).toBeVisible();
  await page.getByLabel("At least (parameters)").fill("lots");
  await expect(page.getByText("Write a count like 110M, 8B or 1.5e9.")).toBeVisible();

  // A shared URL restores the filters.
  await page.goto("/leaderboard?track=open&q=heron");
  await expect(page.getByLabel("System or team")).toHaveValue("heron");
  await expect(leaderboardTable(page).locator("tbody tr")).toHaveCount(1);
});

test("[LEADERBOARD] per-type columns appear on demand and the entity-type view ranks one type", async ({ page }) => {
  await page.goto("/leaderboard?track=open");
  const table = leaderboardTable(page);
  const toggle = page.getByRole("button", { name: "Show per-type columns" });
  await expect(toggle).toHaveAttribute("aria-pressed", "false");
  await expect(table.getByRole("columnheader", { name: /^Person/ })).toHaveCount(0);
  await toggle.click();
  await expect(page.getByRole("button", { name: "Hide per-type columns" })).toHaveAttribute("aria-pressed", "true");
  await expect(table.getByRole("columnheader", { name: /^Person \(n=\d+\)/ })).toBeVisible();
  await expect(page).toHaveURL(/[?&]types=show/);
  // The demo's ranking slice (everything public, protocol section 12) has 13 of its 20 test places; the demo sets
  // min_group_n 5, so the public sees the type's numbers (a rate rounded to 1 point, which reads as whole points since
  // issue 35: "31", not "31.0"; e2e/whole-points.spec.ts), with its interval.
  await expect(table.getByRole("columnheader", { name: /^Place \(n=13\)/ })).toBeVisible();
  await expect(table.locator('tbody tr', { hasText: "Kestrel-1" }).locator('[data-column="type:Place"]')).toHaveText(/^\d+\s*\[\d+\.\d, \d+\.\d\]$/);

  await page.getByRole("navigation", { name: "Entity type" }).getByRole("link", { name: "Place", exact: true }).click();
  await expect(page).toHaveURL(/\/leaderboard\/types\/place\?track=open$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Leaderboard: Place entities");
  const typeTable = leaderboardTable(page);
  await expect(typeTable.getByRole("rowheader", { name: /Kestrel-1/ })).toBeVisible();
  const counts = await typeTable.locator('tbody tr:not([data-kind="reported"]) [data-column="n"]').allTextContents();
  expect(counts.length).toBeGreaterThan(5);
  expect(new Set(counts).size).toBe(1);
  await page.getByRole("navigation", { name: "Track" }).getByRole("link", { name: "Closed-world" }).click();
  await expect(page).toHaveURL(/\/leaderboard\/types\/place\?track=closed$/);
  await expect(leaderboardTable(page).getByRole("columnheader", { name: "Hit@1", exact: true })).toHaveAttribute("aria-sort", "descending");
});

test("[LEADERBOARD] an entry's page shows its metrics, charts, type matrix and comparisons", async ({ page }) => {
  await page.goto("/leaderboard?track=open");
  await leaderboardTable(page).getByRole("link", { name: "Kestrel-1", exact: true }).click();
  await expect(page).toHaveURL(/\/entries\/lbseed[0-9a-f]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Kestrel-1");
  await expect(page.getByRole("table", { name: /Every metric on the \d+ samples/ }).locator("tbody tr")).toHaveCount(4);
  await expect(page.getByRole("table", { name: /Entity types by matching tier/ }).locator("tbody tr")).toHaveCount(7);
  await expect(page.getByRole("group", { name: /^Alias per entity type with 95% intervals/ })).toBeVisible();
  await expect(page.getByRole("group", { name: /^Cumulative accuracy by matching tier/ })).toBeVisible();
  await expect(page.getByTestId("score-versions")).toContainText(/^Scorer \d+\.\d+\.\d+ \(irc-bench-score\) · platform scoring /);
  await expect(page.getByRole("heading", { name: "Comparisons with the baselines" })).toBeVisible();

  const missing = await page.goto("/entries/no-such-entry");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Entry not found" })).toBeVisible();
});

test("[LEADERBOARD] two entries are compared with McNemar's test and per-type differences", async ({ page }) => {
  await page.goto("/compare");
  await page.getByLabel("Entry A").selectOption({ label: "Kestrel-1 (open-world)" });
  await page.getByLabel("Entry B").selectOption({ label: "Osprey-1 (closed-world)" });
  await page.getByRole("button", { name: "Compare", exact: true }).click();
  await expect(page).toHaveURL(/\/compare\?a=lbseed[0-9a-f]+&b=lbseed[0-9a-f]+$/);
  await expect(page.getByRole("heading", { level: 2, name: "Kestrel-1 vs Osprey-1" })).toBeVisible();
  // The pair's one reading (section 13), in the unified view since the two are on different tracks: a verdict with a p bucket.
  await expect(page.getByTestId("pair-verdict")).toHaveText(
    /^Kestrel-1 is (significantly (better|worse) than Osprey-1 \(p (< 0\.001|< 0\.01|< 0\.05)\)|not significantly different from Osprey-1 \(p ≥ 0\.05\))\.$/,
  );
  await expect(page.getByText(/The test of the leaderboard's Unified \(both tracks\), all types.* view \(McNemar's exact test on Alias-aware top-1, Holm-adjusted among the view's entries\), over the \d+ samples of the ranking slice/)).toBeVisible();
  // Section 12: no b, c, chi2 or exact p on the test split.
  await expect(page.getByRole("table", { name: "Paired test" })).toHaveCount(0);
  const html = await page.content();
  expect(html).not.toContain("only A right");
  expect(html).not.toContain("χ²");
  await expect(page.getByRole("table", { name: /per entity type with 95% intervals/ }).locator("tbody tr")).toHaveCount(7);
  await expect(page.getByRole("group", { name: /minus Osprey-1 per entity type/ })).toBeVisible();
});

test("[LEADERBOARD] the table downloads as CSV with the API's numbers", async ({ page, request }) => {
  await page.goto("/leaderboard?track=open");
  const downloading = page.waitForEvent("download");
  await page.getByRole("link", { name: "CSV" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/-test-open-leaderboard\.csv$/);
  const [header = [], ...rows] = parseCsv(readFileSync((await download.path()) ?? "", "utf8"));

  const api = (await (await request.get("/api/leaderboard?track=open&limit=1000")).json()) as { total: number; entries: { system: string; metrics: { alias: { value: number } | null } }[] };
  expect(rows).toHaveLength(api.total);
  const kestrelApi = api.entries.find((entry) => entry.system === "Kestrel-1");
  const kestrelCsv = rows.find((cells) => cells[header.indexOf("system")] === "Kestrel-1") ?? [];
  expect(Number(kestrelCsv[header.indexOf("alias")])).toBe(kestrelApi?.metrics.alias?.value);
});

test("[LEADERBOARD] at 390 px each row is a card with rank, system, primary metric with its interval and the mark; wider tables scroll inside their region", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/leaderboard?track=closed");
  await expect(page.getByRole("region", { name: /Closed-world leaderboard/ })).toBeHidden();
  const cards = page.getByTestId("leaderboard-cards");
  const osprey = cards.locator("li", { has: page.getByRole("link", { name: "Osprey-1", exact: true }) });
  await expect(osprey.getByTestId("card-primary-metric")).toHaveText(/^Hit@1 \d+\.\d\[\d+\.\d, \d+\.\d\]$/);
  await expect(osprey.locator("[data-testid='rank'], [data-testid='mark']").first()).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  await osprey.getByRole("link", { name: "Osprey-1", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1 })).toContainText("Osprey-1");
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // At 768 px the table is back; with the per-type columns it is wider than its region and scrolls there, not the page.
  await page.setViewportSize({ width: 768, height: 900 });
  await page.goto("/leaderboard?track=closed&types=show");
  const region = page.getByRole("region", { name: /Closed-world leaderboard/ });
  await expect(region).toBeVisible();
  const sizes = await region.evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }));
  expect(sizes.scroll).toBeGreaterThan(sizes.client);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(768);
});
