import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Locator, Page } from "@playwright/test";
import { apiContextFor, createTestApiToken, createTestUser, deleteTestUsers, expect, getTestPool, runScript, signInContext, test, waitForBaselines, type TestUser } from "./fixtures";
import { requireLocalUrl } from "../testing/local-database";
import { uploadDemoFile, waitScored } from "./fixtures/scored-upload";

/**
 * Charts are recharts, which draws nothing in the server HTML. A reader
 * without JavaScript gets, in each chart's place, a line pointing at the data
 * table beside it (one row per plotted item), never an empty chart box. With
 * JavaScript each chart draws an <svg> with one mark per row. The forest plot's
 * axis ticks are evenly spaced and end on the axis' end, its names whole up to
 * 30 characters; the run history's time ticks all differ; the progress legend
 * says "significantly better" only of points that were tested; axe stays clean
 * on these pages. Seeds four published entries (scripts/dev/seed-leaderboard.ts,
 * real scoring), all published today beside the baselines, so the timeline has
 * several points on one day.
 */

const WIDTHS = [390, 1366] as const;
const HEIGHT = 844;

type Seeded = { participant: TestUser; devId: string; baselineId: string; closedBaselineId: string };
let seeded: Seeded | null = null;

async function baselineOf(track: "open" | "closed"): Promise<string> {
  const result = await getTestPool().query<{ id: string }>(
    `SELECT s."id" FROM "Submission" s JOIN "DatasetRelease" r ON r."id" = s."releaseId" AND r."isActive"
      WHERE s."split" = 'test' AND s."track" = $1 AND s."isBaseline" AND s."status" = 'SCORED' ORDER BY s."createdAt" LIMIT 1`,
    [track],
  );
  const id = result.rows[0]?.id;
  if (id === undefined) throw new Error(`the chart check needs a ${track}-track baseline`);
  return id;
}

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(300_000);
  await waitForBaselines(120_000);
  runScript("scripts/dev/seed-leaderboard.ts", ["--database-url", requireLocalUrl("DATABASE_URL"), "--reset", "--no-baselines", "--entries", "4", "--resamples", "200", "--json"]);
  const participant = await createTestUser({ label: "charts participant" });
  const { token } = await createTestApiToken(participant.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  // Two dev runs seconds apart: the run history's time axis must still tick at different minutes.
  const devId = await uploadDemoFile(api, "dev-open.jsonl");
  const otherDev = await uploadDemoFile(api, "dev-open-v2.jsonl");
  await waitScored(api, devId);
  await waitScored(api, otherDev);
  await api.dispose();
  seeded = { participant, devId, baselineId: await baselineOf("open"), closedBaselineId: await baselineOf("closed") };
});

test.afterAll(async () => {
  runScript("scripts/dev/seed-leaderboard.ts", ["--database-url", requireLocalUrl("DATABASE_URL"), "--remove"]);
  if (seeded === null) return;
  await getTestPool().query(`DELETE FROM "Submission" WHERE "userId" = $1`, [seeded.participant.id]);
  await deleteTestUsers([seeded.participant.id]);
});

function data(): Seeded {
  if (seeded === null) throw new Error("not seeded");
  return seeded;
}

async function contextWithoutScript(browser: Browser, baseURL: string, width: number, user: TestUser | null): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width, height: HEIGHT }, javaScriptEnabled: false });
  if (user !== null) await signInContext(context, baseURL, user);
  return context;
}

async function contextWithScript(browser: Browser, baseURL: string, width: number, user: TestUser | null): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL, viewport: { width, height: HEIGHT } });
  if (user !== null) await signInContext(context, baseURL, user);
  return context;
}

async function open(page: Page, target: string): Promise<void> {
  const response = await page.goto(target);
  expect(response?.status(), target).toBe(200);
}

/** Without JavaScript: no recharts wrapper and no chart box at all (empty or zero-height), and every chart says where its data is. */
async function expectFallbacks(page: Page, where: string, charts: number): Promise<void> {
  await expect(page.locator(".recharts-wrapper"), where).toHaveCount(0);
  await expect(page.getByTestId("chart-box"), where).toHaveCount(0);
  const fallbacks = page.getByTestId("chart-fallback");
  await expect(fallbacks, where).toHaveCount(charts);
  for (const fallback of await fallbacks.all()) {
    await expect(fallback).toBeVisible();
    await expect(fallback).toContainText(/needs JavaScript/);
    const box = await fallback.boundingBox();
    expect(box?.height ?? 0, where).toBeGreaterThan(10);
  }
}

/** With JavaScript: the chart's recharts <svg>, drawn at a real size. */
async function expectDrawn(chart: Locator): Promise<Locator> {
  const surface = chart.locator(".recharts-wrapper > svg.recharts-surface").first();
  await expect(surface).toBeVisible();
  const box = await surface.boundingBox();
  expect(box?.width ?? 0).toBeGreaterThan(100);
  expect(box?.height ?? 0).toBeGreaterThan(100);
  return surface;
}

async function expectNoPageOverflow(page: Page, where: string): Promise<void> {
  const sizes = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, inner: window.innerWidth }));
  expect(sizes.scroll, `${where}: page is ${sizes.scroll} px wide in a ${sizes.inner} px window`).toBeLessThanOrEqual(sizes.inner + 1);
}

/** The forest plot: a point per data row; ticks a regular step apart, the last at the axis' end; every name whole inside the plot. */
async function expectForestPlot(page: Page, where: string): Promise<void> {
  const plot = page.getByTestId("forest-plot");
  const surface = await expectDrawn(plot);
  const rows = await plot.getByTestId("forest-plot-data").locator("tbody tr").count();
  expect(rows, where).toBeGreaterThan(0);
  await expect(surface.locator(".recharts-scatter-symbol")).toHaveCount(rows);
  // recharts 3 draws tick labels in a layer of their own (above the marks), outside the axis group.
  const tickTexts = surface.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value");
  await expect(tickTexts.first()).toBeVisible();
  const ticks = (await tickTexts.allTextContents()).map((text) => Number(text.replace(/,/g, "")));
  expect(ticks.length, `${where}: ticks ${ticks.join(", ")}`).toBeGreaterThanOrEqual(3);
  const steps = ticks.slice(1).map((tick, index) => Math.round((tick - (ticks[index] ?? 0)) * 1000) / 1000);
  expect(new Set(steps).size, `${where}: tick steps ${steps.join(", ")}`).toBe(1);
  // The last tick sits at the right end of the axis line, the first at its left end.
  const edges = await surface.evaluate((svg) => {
    const axis = svg.querySelector(".recharts-xAxis line.recharts-cartesian-axis-line")?.getBoundingClientRect();
    const marks = Array.from(svg.querySelectorAll(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value")).map((text) => {
      const box = text.getBoundingClientRect();
      return box.left + box.width / 2;
    });
    return { left: axis?.left ?? -1e6, right: axis?.right ?? -1e6, first: marks[0] ?? 0, last: marks[marks.length - 1] ?? 0 };
  });
  expect(Math.abs(edges.last - edges.right), where).toBeLessThan(2);
  expect(Math.abs(edges.first - edges.left), where).toBeLessThan(2);
  // Every name is drawn whole (its table name, up to 30 characters) inside the plot.
  const names = await plot.getByTestId("forest-plot-data").locator("tbody th").allTextContents();
  const drawn = await surface.evaluate((svg) => {
    const frame = svg.getBoundingClientRect();
    return Array.from(svg.querySelectorAll("text.forest-plot-name")).map((text) => {
      const box = text.getBoundingClientRect();
      return { text: Array.from(text.childNodes).filter((node) => node.nodeType === Node.TEXT_NODE).map((node) => node.textContent).join(""), isInside: box.left >= frame.left - 0.5 && box.right <= frame.right + 0.5 };
    });
  });
  expect(drawn.filter((name) => !name.isInside), where).toEqual([]);
  for (const name of names.filter((item) => item.length <= 30)) expect(drawn.map((item) => item.text), where).toContain(name);
}

test("[CHARTS] without JavaScript every chart page shows its data table and a note in place of each chart, never an empty chart box", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const { participant, devId, baselineId, closedBaselineId } = data();
  for (const width of WIDTHS) {
    const context = await contextWithoutScript(browser, baseURL ?? "", width, participant);
    const page = await context.newPage();
    for (const target of ["/leaderboard?track=open", "/leaderboard?track=closed"]) {
      await open(page, target);
      await expectFallbacks(page, `${target} at ${width}`, 1);
      await expect(page.getByTestId("forest-plot-data").locator("tbody tr")).not.toHaveCount(0);
      await expectNoPageOverflow(page, `${target} at ${width}`);
    }
    await open(page, "/leaderboard/progress?track=open");
    await expectFallbacks(page, `progress at ${width}`, 1);
    await expect(page.getByRole("table", { name: /\(table\)$/ }).locator("tbody tr")).not.toHaveCount(0);
    await open(page, `/entries/${baselineId}`);
    await expectFallbacks(page, `entry at ${width}`, await page.getByTestId("chart-fallback").count());
    expect(await page.getByTestId("chart-fallback").count()).toBeGreaterThan(0);
    await open(page, `/entries/${closedBaselineId}`);
    await expectFallbacks(page, `closed entry at ${width}`, await page.getByTestId("chart-fallback").count());
    await open(page, "/dataset");
    await expectFallbacks(page, `dataset at ${width}`, 1);
    await open(page, `/submissions/${devId}/samples`);
    await expectFallbacks(page, `samples at ${width}`, 1);
    await expect(page.getByTestId("error-class-counts").locator("tbody tr")).not.toHaveCount(0);
    await open(page, "/runs");
    await expectFallbacks(page, `/runs at ${width}`, 1);
    await expect(page.getByTestId("run-row")).not.toHaveCount(0);
    await expectNoPageOverflow(page, `/runs at ${width}`);
    await context.close();
  }
});

test("[CHARTS] the leaderboard's forest plots draw a point per row, on even ticks, with whole names", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  for (const width of WIDTHS) {
    const context = await contextWithScript(browser, baseURL ?? "", width, null);
    const page = await context.newPage();
    for (const target of ["/leaderboard?track=open", "/leaderboard?track=closed"]) {
      await open(page, target);
      await expectForestPlot(page, `${target} at ${width}`);
      await expectNoPageOverflow(page, `${target} at ${width}`);
    }
    await open(page, "/leaderboard/types/person?track=open");
    if ((await page.getByTestId("forest-plot").count()) > 0) await expectForestPlot(page, `person view at ${width}`);
    await context.close();
  }
});

test("[CHARTS] the progress chart draws a point per table row, one series per status, and its legend claims no test that was not made", async ({ browser, baseURL }) => {
  for (const width of WIDTHS) {
    const context = await contextWithScript(browser, baseURL ?? "", width, null);
    const page = await context.newPage();
    await open(page, "/leaderboard/progress?track=open");
    const chart = page.getByTestId("progress-chart");
    const surface = await expectDrawn(chart);
    const rows = page.getByRole("table", { name: /\(table\)$/ }).locator("tbody tr");
    const statuses = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-status") ?? ""));
    expect(statuses.length).toBeGreaterThan(2);
    await expect(surface.locator(".recharts-scatter-symbol")).toHaveCount(statuses.length);
    // One series per status: the series' point counts are the statuses' row counts.
    const perSeries = await surface.locator("g.recharts-scatter").evaluateAll((groups) => groups.map((group) => group.querySelectorAll(".recharts-scatter-symbol").length));
    const perStatus = [...new Set(statuses)].map((status) => statuses.filter((item) => item === status).length);
    expect([...perSeries].sort((a, b) => a - b)).toEqual([...perStatus].sort((a, b) => a - b));
    // The legend names the best-score line and exactly the series drawn; "significant" only of tested series.
    const legend = await chart.locator(".recharts-legend-item-text").allTextContents();
    expect(legend.length, legend.join(" | ")).toBe(new Set(statuses).size + 1);
    for (const text of legend.filter((item) => /significant/i.test(item))) expect(text).toMatch(/tested: (significantly|not significantly) better/);
    if (statuses.includes("first")) expect(legend.find((text) => /^First tested entry/.test(text)) ?? "").not.toMatch(/significant/i);
    // Points do not hide each other: no two markers' centres closer than 6 px.
    const centres = await surface.locator(".recharts-scatter-symbol").evaluateAll((shapes) =>
      shapes.map((shape) => {
        const box = shape.getBoundingClientRect();
        return [box.left + box.width / 2, box.top + box.height / 2] as const;
      }),
    );
    const crowded = centres.flatMap((a, i) => centres.slice(i + 1).filter((b) => Math.hypot(a[0] - b[0], a[1] - b[1]) < 6).map(() => i));
    expect(crowded, `markers on top of each other at ${width}`).toEqual([]);
    await expect(surface.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").first()).toBeVisible();
    const days = await surface.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents();
    expect(new Set(days).size, days.join(" | ")).toBe(days.length);
    await expectNoPageOverflow(page, `progress at ${width}`);
    await context.close();
  }
});

test("[CHARTS] an entry's charts, the dataset's and a dev run's error classes draw their marks", async ({ browser, baseURL }) => {
  const { participant, devId, baselineId, closedBaselineId } = data();
  for (const width of WIDTHS) {
    const context = await contextWithScript(browser, baseURL ?? "", width, participant);
    const page = await context.newPage();
    await open(page, `/entries/${baselineId}`);
    const tiers = page.getByRole("group", { name: /^Cumulative accuracy by matching tier/ });
    await expect((await expectDrawn(tiers)).locator(".recharts-bar-rectangle")).not.toHaveCount(0);
    const perType = page.getByRole("group", { name: /per entity type with 95% intervals/ });
    await expect((await expectDrawn(perType)).locator(".recharts-bar-rectangle")).not.toHaveCount(0);
    await open(page, `/entries/${closedBaselineId}`);
    const hitAtK = page.getByRole("group", { name: /^Hit@K curve/ });
    await expect((await expectDrawn(hitAtK)).locator(".recharts-line-dot")).toHaveCount(4);

    await open(page, "/dataset");
    const split = page.getByRole("group", { name: "Samples per entity type, stacked by split" });
    await expect((await expectDrawn(split)).locator(".recharts-bar-rectangle")).not.toHaveCount(0);

    await open(page, `/submissions/${devId}/samples`);
    const classes = page.getByRole("group", { name: "Samples per error class" });
    await expect((await expectDrawn(classes)).locator(".recharts-bar-rectangle")).not.toHaveCount(0);
    await expectNoPageOverflow(page, `samples at ${width}`);
    await context.close();
  }
});

test("[CHARTS] /runs draws a point per scored run, on time ticks that all differ", async ({ browser, baseURL }) => {
  const { participant } = data();
  for (const width of WIDTHS) {
    const context = await contextWithScript(browser, baseURL ?? "", width, participant);
    const page = await context.newPage();
    await open(page, "/runs");
    const surface = await expectDrawn(page.getByTestId("run-history-chart"));
    await expect(surface.locator(".recharts-line-dot")).toHaveCount(await page.getByTestId("run-row").count());
    await expect(surface.locator("text.chart-x-tick").first()).toBeVisible();
    const ticks = await surface.locator("text.chart-x-tick").evaluateAll((texts) => texts.map((text) => Array.from(text.querySelectorAll("tspan")).map((tspan) => tspan.textContent ?? "")));
    expect(ticks.length).toBeGreaterThanOrEqual(2);
    // ISO 8601 in UTC, as lib/core/format writes dates: the day, and the minute when ticks are under a day apart.
    for (const lines of ticks) {
      expect(lines[0]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      if (lines[1] !== undefined) expect(lines[1]).toMatch(/^\d{2}:\d{2}Z$/);
    }
    const labels = ticks.map((lines) => lines.join(" "));
    expect(new Set(labels).size, labels.join(" | ")).toBe(labels.length);
    const overlaps = await surface.locator("text.chart-x-tick").evaluateAll((texts) => {
      const boxes = texts.map((text) => text.getBoundingClientRect());
      return boxes.slice(1).filter((box, index) => box.left < (boxes[index]?.right ?? 0)).length;
    });
    expect(overlaps).toBe(0);
    await expectNoPageOverflow(page, `/runs at ${width}`);
    await context.close();
  }
});

test("[CHARTS] axe finds no serious or critical violation on the chart pages at 390 and 1366", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const { participant, devId, baselineId, closedBaselineId } = data();
  const pages = ["/leaderboard?track=open", "/leaderboard/progress?track=open", `/entries/${baselineId}`, `/entries/${closedBaselineId}`, "/dataset", "/runs", `/submissions/${devId}/samples`];
  const problems: string[] = [];
  for (const width of WIDTHS) {
    const context = await browser.newContext({ baseURL, viewport: { width, height: HEIGHT } });
    await signInContext(context, baseURL ?? "", participant);
    const page = await context.newPage();
    for (const target of pages) {
      await page.goto(target, { waitUntil: "networkidle" });
      const results = await new AxeBuilder({ page }).analyze();
      problems.push(
        ...results.violations
          .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
          .map((violation) => `${target} at ${width}: ${violation.id} ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(" | ")}`),
      );
    }
    await context.close();
  }
  expect(problems, problems.join("\n")).toEqual([]);
});
