import type { Browser, Page } from "@playwright/test";
import { expect, test, waitForBaselines } from "./fixtures";

/**
 * How a reader meets the leaderboard on the demo release (its baselines only):
 * the first ranked row on the first screen, per-type cells that say why they
 * are empty, Escape closing the table's popovers, and the whole table working
 * without JavaScript (sorting links, a GET filter form, the chart's data).
 */

const SCREENS = [
  { width: 390, height: 844, name: "phone" },
  { width: 1366, height: 768, name: "laptop" },
] as const;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  await waitForBaselines(120_000);
});

async function openAt(browser: Browser, baseURL: string | undefined, width: number, height: number, javaScriptEnabled = true): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport: { width, height }, javaScriptEnabled });
  return context.newPage();
}

/** The first ranked entry as this width shows it: a card on phones, a table row on wider screens. */
function firstEntry(page: Page, width: number) {
  return width < 768 ? page.getByTestId("leaderboard-cards").locator("li").first() : page.getByRole("table", { name: /leaderboard (of|on) / }).locator("tbody tr").first();
}

for (const screen of SCREENS) {
  test(`[LEADERBOARD] the first ranked entry is on the first screen at ${screen.width}x${screen.height}, filters after it`, async ({ browser, baseURL }) => {
    const page = await openAt(browser, baseURL, screen.width, screen.height);
    for (const path of ["/leaderboard?track=open", "/leaderboard?track=closed", "/leaderboard/types/person?track=open"]) {
      await page.goto(path);
      const entry = firstEntry(page, screen.width);
      await expect(entry, path).toBeVisible();
      const box = await entry.boundingBox();
      if (box === null) throw new Error(`${path}: no box for the first entry`);
      // The whole first row (not only its top edge) is inside the first screen, before any scrolling.
      expect(box.y + Math.min(box.height, 120), `${path}: first entry at ${Math.round(box.y)} px`).toBeLessThanOrEqual(screen.height);
      // The filters follow the table, collapsed while none is on.
      const filters = page.getByTestId("table-filters");
      await expect(filters).not.toHaveAttribute("open", "");
      const filtersBox = await filters.boundingBox();
      expect(filtersBox?.y ?? 0).toBeGreaterThan(box.y);
    }
    await page.context().close();
  });

  test(`[LEADERBOARD] per-type cells say why they are empty at ${screen.width} px`, async ({ browser, baseURL }) => {
    const page = await openAt(browser, baseURL, screen.width, screen.height);
    const reasonOrNumber = /^\d|^n = \d+ < \d+$|^hidden with smaller groups$|^no samples$/;
    if (screen.width >= 768) {
      // Every per-type cell of an entry is a number or a reason, never a bare dash.
      await page.goto("/leaderboard?track=open&types=show");
      const cells = page.getByRole("table", { name: /leaderboard (of|on) / }).locator('tbody tr[data-kind="baseline"] [data-column^="type:"]');
      const texts = (await cells.allTextContents()).map((text) => text.trim());
      expect(texts.length).toBeGreaterThan(0);
      for (const text of texts) expect(text, `per-type cell "${text}"`).toMatch(reasonOrNumber);
    }
    // Each type view: a number or a reason in every entry's ranking-metric cell, or one note for the whole view.
    for (const type of ["person", "place", "organization", "event", "work", "military-unit", "other"]) {
      await page.goto(`/leaderboard/types/${type}?track=open`);
      const note = page.getByTestId("type-hidden-note");
      if ((await note.count()) > 0) {
        await expect(note).toContainText(/^No .+ numbers can be shown on this release: /);
        await expect(page.locator('[data-testid="suppressed-cell"]')).toHaveCount(0);
        continue;
      }
      const primary =
        screen.width < 768
          ? page.getByTestId("leaderboard-cards").locator('li[data-kind="baseline"] [data-testid="card-primary-metric"] dd')
          : page.getByRole("table", { name: /leaderboard (of|on) / }).locator('tbody tr[data-kind="baseline"] td[data-column="alias"]');
      const texts = (await primary.allTextContents()).map((text) => text.trim());
      expect(texts.length, type).toBeGreaterThan(0);
      for (const text of texts) expect(text, `${type}: "${text}"`).toMatch(reasonOrNumber);
    }
    await page.context().close();
  });

  test(`[LEADERBOARD] Escape closes the rank popover and the Columns popover at ${screen.width} px`, async ({ browser, baseURL }) => {
    const page = await openAt(browser, baseURL, screen.width, screen.height);
    await page.goto("/leaderboard?track=closed");
    const scope = screen.width < 768 ? page.getByTestId("leaderboard-cards") : page.getByRole("table", { name: /leaderboard (of|on) / });
    const rank = scope.getByTestId("rank").first();
    await rank.locator("summary").click();
    await expect(rank).toHaveAttribute("open", "");
    const reason = rank.getByTestId("rank-reason");
    await expect(reason).toBeVisible();
    if (screen.width >= 768) {
      // The reason is drawn above the sticky System column: the point at its right end is the popover, not the column.
      const box = await reason.boundingBox();
      if (box === null) throw new Error("no box for the rank reason");
      const isOnTop = await page.evaluate(
        ({ x, y }) => document.elementFromPoint(x, y)?.closest("[data-testid='rank-reason']") !== null,
        { x: box.x + box.width - 8, y: box.y + box.height / 2 },
      );
      expect(isOnTop, "the rank reason is covered by another cell").toBe(true);
    }
    await page.keyboard.press("Escape");
    await expect(rank).not.toHaveAttribute("open", "");
    await expect(rank.locator("summary")).toBeFocused();
    if (screen.width >= 768) {
      const picker = page.getByTestId("column-picker");
      await picker.locator("summary").click();
      await expect(picker).toHaveAttribute("open", "");
      await picker.getByRole("checkbox").first().focus();
      await page.keyboard.press("Escape");
      await expect(picker).not.toHaveAttribute("open", "");
      await expect(picker.locator("summary")).toBeFocused();
    }
    await page.context().close();
  });

  test(`[LEADERBOARD] without JavaScript a reader sorts by another metric and filters the table at ${screen.width} px`, async ({ browser, baseURL }) => {
    const page = await openAt(browser, baseURL, screen.width, screen.height, false);
    // The closed-world track: the demo has several baselines there.
    await page.goto("/leaderboard?track=closed");
    if (screen.width >= 768) {
      // Sorting: the MRR header is a link the server renders sorted.
      const mrrHeader = page.locator('a[data-sort-link="mrr"]');
      await expect(mrrHeader).toHaveAttribute("href", /sort=mrr&dir=desc/);
      await mrrHeader.click();
    } else {
      // Phones have cards, not headers: the sort is a field of the same GET form as the filters.
      await page.getByTestId("table-filters").locator("summary").click();
      const form = page.getByRole("search", { name: "Filter the leaderboard" });
      await form.getByLabel("Sort by").selectOption("mrr");
      await form.getByLabel("Order").selectOption("desc");
      await form.getByRole("button", { name: "Apply filters" }).click();
    }
    // The server redirects to the view's canonical address: MRR's own direction, descending, is left out.
    await expect(page).toHaveURL(/[?&]sort=mrr(&|$)/);
    // The server rendered the sorted page (the table is in the page at every width; phones show it as cards).
    await expect(page.locator('th[data-header="mrr"]')).toHaveAttribute("aria-sort", "descending");
    const mrr = (await page.locator('tbody [data-column="mrr"]').allTextContents()).map((text) => Number.parseFloat(text)).filter(Number.isFinite);
    expect(mrr.length).toBeGreaterThan(1);
    expect(mrr).toEqual([...mrr].sort((a, b) => b - a));
    // Filtering: the collapsed panel opens without script (a <details>), and its GET form is read by the server.
    const panel = page.getByTestId("table-filters");
    if ((await panel.getAttribute("open")) === null) await panel.locator("summary").click();
    const form = page.getByRole("search", { name: "Filter the leaderboard" });
    const systems = await page.locator('tbody [data-column="system"] a').allTextContents();
    const target = systems[0];
    if (target === undefined) throw new Error("no system on the board");
    await form.getByLabel("System or team").fill(target);
    await form.getByRole("button", { name: "Apply filters" }).click();
    await page.waitForURL((url) => url.searchParams.get("q") === target);
    // The sort survives the filter (a hidden input of the form).
    await expect(page).toHaveURL(/sort=mrr/);
    const shown = await page.locator('tbody [data-column="system"] a').allTextContents();
    if (screen.width < 768) expect(await page.getByTestId("leaderboard-cards").locator("li").count()).toBe(shown.length);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.length).toBeLessThan(systems.length);
    for (const name of shown) expect(name.toLowerCase()).toContain(target.toLowerCase());
    await expect(page.getByTestId("table-filters")).toHaveAttribute("open", "");
    // The chart's numbers are on the page without script: the forest plot's data table.
    await expect(page.getByTestId("forest-plot-data")).toBeAttached();
    await page.context().close();
  });
}

test("[LEADERBOARD] the matrix and the forest plot print whole system names", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto("/leaderboard/matrix?track=closed");
  const names = await page.getByTestId("matrix-row-name").allTextContents();
  expect(names.length).toBeGreaterThan(1);
  for (const name of names) expect(name).not.toMatch(/…$/);
  const overflowing = await page.getByTestId("matrix-column-name").evaluateAll((spans) => spans.filter((span) => span.scrollWidth > span.clientWidth + 1).length);
  expect(overflowing).toBe(0);
  await page.goto("/leaderboard?track=closed");
  await expect(page.locator("text.forest-plot-name").first()).toBeAttached();
  // The drawn label, without its <title> (the full name for a hover).
  const labels = await page.locator("text.forest-plot-name").evaluateAll((texts) =>
    texts.map((text) => Array.from(text.childNodes).filter((node) => node.nodeName !== "title").map((node) => node.textContent ?? "").join("")),
  );
  const full = await page.getByTestId("forest-plot-data").locator("tbody th").allTextContents();
  expect(labels.length).toBeGreaterThan(0);
  // Each label is its whole name, or its first 29 characters and "…" (never ~15, where both BM25 baselines read "BM25 over…"); no two alike.
  expect(labels.length).toBe(full.length);
  labels.forEach((label, index) => {
    const name = full[index]?.trim() ?? "";
    if (label === name) return;
    expect(label.endsWith("…"), `${label} for ${name}`).toBe(true);
    expect(label.length, label).toBeGreaterThanOrEqual(28);
    expect(name.startsWith(label.slice(0, -1).trimEnd()), `${label} for ${name}`).toBe(true);
  });
  expect(new Set(labels).size).toBe(labels.length);
});

test("[HOME] the home page gives the downloaded scorer's command, not a repository script", async ({ page }) => {
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 800 });
    await page.goto("/");
    const command = page.getByTestId("home-score-command");
    await expect(command).toContainText("node irc-bench-score.mjs --release FOLDER --split dev --predictions preds.jsonl");
    await expect(page.locator("body")).not.toContainText("npm run");
    await expect(page.getByRole("link", { name: "irc-bench-score.mjs" })).toHaveAttribute("href", "/dataset/download/irc-bench-score.mjs");
  }
});
