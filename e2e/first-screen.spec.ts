import { expect, test, waitForBaselines } from "./fixtures";

/**
 * The first screen answers a reader's first question (issue 35): the view's best system and its verdict
 * against the runner-up in one line above the table, a search box in view, and on a phone the first card
 * whole above the fold with its primary metric in view; the per-type toggle shows per-type numbers on cards.
 */

const VERDICT_LINE = /^(Closed-world|Open-world|Unified \(both tracks\)): best is .+, (significantly (better|worse) than|not significantly different from) the runner-up .+ \(p [<≥] 0\.\d+\)\.$/;

test.beforeAll(async () => {
  await waitForBaselines(120_000);
});

test("[FIRST SCREEN] at 1366 the best system's verdict line sits above the table and the search box is in view and works", async ({ page }) => {
  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto("/leaderboard?track=closed");
  const headline = page.getByTestId("view-headline");
  await expect(headline).toHaveText(VERDICT_LINE);
  const table = page.locator("table").first();
  const [lineBox, tableBox] = [await headline.boundingBox(), await table.boundingBox()];
  expect((lineBox?.y ?? 0) + (lineBox?.height ?? 0)).toBeLessThanOrEqual(tableBox?.y ?? 0);

  const search = page.getByTestId("leaderboard-search");
  await expect(search).toBeInViewport();
  const best = /best is (.+?) \(/.exec((await headline.textContent()) ?? "")?.[1] ?? "";
  expect(best).not.toBe("");
  await search.fill(best);
  await search.press("Enter");
  await expect(page).toHaveURL(/[?&]q=/);
  await expect(page.getByTestId("table-toolbar")).toContainText(/Showing \d+ of \d+ rows/);
  await expect(page.locator("table tbody tr").first()).toContainText(best);
});

for (const track of ["closed", "unified"] as const) {
  test(`[FIRST SCREEN] at 390 the first ${track} card is whole above the fold with its primary metric in view`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`/leaderboard?track=${track}`);
    await expect(page.getByTestId("view-headline")).toHaveText(VERDICT_LINE);
    await expect(page.getByTestId("leaderboard-search")).toBeInViewport();
    const card = page.getByTestId("leaderboard-cards").locator("li").first();
    const box = await card.boundingBox();
    expect(box).not.toBeNull();
    expect((box?.y ?? 0) + (box?.height ?? 0)).toBeLessThanOrEqual(844);
    await expect(card.getByTestId("card-primary-metric")).toBeInViewport({ ratio: 1 });
  });
}

test("[FIRST SCREEN] at 390 the per-type toggle shows per-type numbers on the cards", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/leaderboard?track=closed");
  await expect(page.getByTestId("card-type-values")).toHaveCount(0);
  await page.getByRole("button", { name: "Show per-type columns" }).click();
  await expect(page).toHaveURL(/types=show/);
  const first = page.getByTestId("leaderboard-cards").locator("li").first().getByTestId("card-type-values");
  await expect(first).toBeVisible();
  await expect(first.locator("[data-type]")).toHaveCount(7);
});
