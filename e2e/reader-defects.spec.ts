import type { Page } from "@playwright/test";
import { apiContextFor, createTestApiToken, expect, signInContext, test, waitForBaselines } from "./fixtures";
import { demoPredictions, publishableTestFile, uploadScoredFile } from "./fixtures/scored-upload";

/**
 * What participants read, at 390 and 1366 px: the dev workbench on a phone
 * (the instance browser's rows and the error analysis as cards, the
 * narrative full width with the answer under it, /submissions/compare
 * without a horizontal page scroll), one way to write dates and p, and a
 * test file that is another account's public entry byte for byte, told to
 * its uploader and to maintainers and to nobody else.
 */

const WIDTHS = [390, 1366] as const;

async function pageOverflow(page: Page): Promise<{ scrollWidth: number; innerWidth: number }> {
  return page.evaluate(() => ({ scrollWidth: document.scrollingElement?.scrollWidth ?? 0, innerWidth: window.innerWidth }));
}

test("[READER] the dev workbench on a phone: sample rows and error classes are cards, compare fits 390 px; wider screens keep the tables", async ({ playwright, baseURL, page, createUser, signInAs }) => {
  test.setTimeout(180_000);
  const ada = await createUser({ label: "reader-wb" });
  const { token } = await createTestApiToken(ada.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  const oldId = await uploadScoredFile(api, "dev-open.jsonl", await demoPredictions("dev-open.jsonl"));
  const newId = await uploadScoredFile(api, "dev-open-v2.jsonl", await demoPredictions("dev-open-v2.jsonl"));
  await api.dispose();
  await signInAs(ada);

  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    const isPhone = width < 640;

    await page.goto(`/submissions/${newId}/samples`);
    const row = page.getByTestId("sample-row").first();
    await expect(row).toBeVisible();
    const rowBox = await row.boundingBox();
    const narrative = await row.getByTestId("narrative").boundingBox();
    const answer = row.getByTestId("answer");
    await expect(answer).toBeVisible();
    const answerBox = await answer.boundingBox();
    expect(rowBox && narrative && answerBox).toBeTruthy();
    if (!rowBox || !narrative || !answerBox) return;
    if (isPhone) {
      // A card: the narrative takes the card's width, the answer sits under it, inside the screen.
      expect(narrative.width).toBeGreaterThan(rowBox.width - 24);
      expect(answerBox.y).toBeGreaterThan(narrative.y + narrative.height - 1);
      expect(answerBox.x + answerBox.width).toBeLessThanOrEqual(width);
      await expect(page.getByRole("columnheader", { name: "Gold entity" })).toBeHidden();
      await expect(page.getByTestId("error-type-card").first()).toBeVisible();
      await expect(page.getByRole("table", { name: "Error classes per entity type" })).toBeHidden();
      await expect(page.getByTestId("confusion-cards")).toBeVisible();
    } else {
      // A table row: the answer is a column beside the narrative.
      expect(answerBox.x).toBeGreaterThan(narrative.x + narrative.width - 1);
      await expect(page.getByRole("columnheader", { name: "Gold entity" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Error classes per entity type" })).toBeVisible();
      await expect(page.getByRole("table", { name: "Type confusion" })).toBeVisible();
      await expect(page.getByTestId("error-type-cards")).toBeHidden();
    }
    let overflow = await pageOverflow(page);
    expect(overflow.scrollWidth, `samples page at ${width}`).toBeLessThanOrEqual(overflow.innerWidth);

    await page.goto(`/submissions/compare?old=${oldId}&new=${newId}`);
    await expect(page.getByTestId("compare-summary")).toBeVisible();
    await expect(page.getByTestId("sample-row").first()).toBeVisible();
    overflow = await pageOverflow(page);
    expect(overflow.scrollWidth, `compare page at ${width}`).toBeLessThanOrEqual(overflow.innerWidth);
    // The compare page's p is written by the one rule: plain decimals or "< 0.001", never an exponent.
    const summary = (await page.getByTestId("compare-summary").textContent()) ?? "";
    expect(summary).not.toMatch(/\de-\d/);
    await expect(page.getByTestId("other-answer").first()).toBeVisible();
  }
});

test("[READER] a test file identical to another account's public entry: the uploader and maintainers are told, the entry's owner learns nothing", async ({ playwright, baseURL, page, browser, createUser, signInAs }) => {
  test.setTimeout(240_000);
  await waitForBaselines(120_000);
  const first = await createUser({ label: "reader-first" });
  const copier = await createUser({ label: "reader-copier" });
  const maintainer = await createUser({ label: "reader-reviewer", role: "MAINTAINER" });
  // Bytes of this run only: a publishable file's lines rotated (the same answers; the bundled demo files are too close to a baseline under v1.3).
  const lines = (await publishableTestFile("open")).toString("utf8").split("\n").filter((line) => line.trim() !== "");
  const shift = 1 + (Date.now() % (lines.length - 2));
  const bytes = Buffer.from(`${[...lines.slice(shift), ...lines.slice(0, shift)].join("\n")}\n`);
  const systemName = `Public original ${Date.now().toString(36)}`;

  const firstApi = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token: (await createTestApiToken(first.id)).token });
  const publishedId = await uploadScoredFile(firstApi, "original.jsonl", bytes);
  const requested = await firstApi.post(`/api/submissions/${publishedId}/publication`, {
    data: { methodDescription: `${systemName}: names the entity from a retriever.`, factSheet: { version: 1, systemName, team: "", approach: null, baseModel: null, knowledgeCutoff: null, parameters: "1.3B", openWeights: null, dataUsed: { train: null, dev: null, sourceCollections: null, wikiBeyondKb: null, details: "" }, configuration: { text: "", url: null }, compute: "", codeUrl: null, paperUrl: null, protocol: { noTestTuning: null, runs: null, bestOfN: null, seeds: "" } } },
  });
  expect(requested.status(), await requested.text()).toBe(202);
  const maintainerApi = await apiContextFor(playwright, baseURL ?? "", { kind: "session", user: maintainer });
  const approved = await maintainerApi.post(`/api/admin/submissions/${publishedId}/review`, { data: { action: "approve", reason: "Checked." } });
  expect(approved.status(), await approved.text()).toBe(200);

  // The fact sheet read "1.3B" as the size filter does, and the public entry shows it so.
  const anonymous = await browser.newContext({ baseURL });
  const reader = await anonymous.newPage();
  await reader.goto(`/entries/${publishedId}`);
  await expect(reader.getByTestId("fact-sheet")).toContainText("1.3B");
  await anonymous.close();

  const copierApi = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token: (await createTestApiToken(copier.id)).token });
  const copyId = await uploadScoredFile(copierApi, "copy.jsonl", bytes);
  const copyView = (await (await copierApi.get(`/api/submissions/${copyId}`)).json()) as { identicalPublicEntry: { id: string; system: string; isBaseline: boolean } | null };
  expect(copyView.identicalPublicEntry).toEqual({ id: publishedId, system: systemName, isBaseline: false });
  // The published entry's owner is not told that someone else holds the same file.
  const originalView = (await (await firstApi.get(`/api/submissions/${publishedId}`)).json()) as { identicalPublicEntry: unknown };
  expect(originalView.identicalPublicEntry).toBeNull();
  await Promise.all([firstApi.dispose(), copierApi.dispose(), maintainerApi.dispose()]);

  await signInAs(copier);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/submissions/${copyId}`);
    const notice = page.getByTestId("identical-public-entry");
    await expect(notice).toContainText(`This file is identical, byte for byte, to the public entry "${systemName}"`);
    await expect(notice.getByRole("link", { name: "Open the public entry" })).toHaveAttribute("href", `/entries/${publishedId}`);
    // Dates read one way; buckets with ≥, never ">=" or an exponent.
    await expect(page.locator("dt", { hasText: /^Submitted$/ }).locator("xpath=following-sibling::dd[1]")).toHaveText(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    const text = (await page.locator("main").textContent()) ?? "";
    expect(text).not.toContain(">= 0.05");
    expect(text).not.toMatch(/\de-\d/);
    const overflow = await pageOverflow(page);
    expect(overflow.scrollWidth).toBeLessThanOrEqual(overflow.innerWidth);
  }

  const context = await browser.newContext({ baseURL });
  await signInContext(context, baseURL ?? "", maintainer);
  const review = await context.newPage();
  await review.goto(`/submissions/${copyId}`);
  await expect(review.getByTestId("identical-public-entry")).toContainText(`Identical, byte for byte, to the public entry "${systemName}" of another account.`);
  // Exact p for maintainers, by the same rule: plain decimals or "< 0.001".
  const exact = await review.locator("table:has(th:text-is('exact p')) tbody td:nth-child(7)").allTextContents();
  expect(exact.length).toBeGreaterThan(0);
  for (const cell of exact) expect(cell.trim()).toMatch(/^(< 0\.001|< 0\.05|\d\.\d{2,})$/);
  await context.close();
});
