import path from "node:path";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { apiContextFor, createTestApiToken, createTestUser, deleteTestUsers, expect, getTestPool, signInContext, test, waitForBaselines, type TestUser } from "./fixtures";
import { publishableTestFile, uploadScoredFile } from "./fixtures/scored-upload";

/**
 * Issue 16, items 1 and 2, as people do it: a participant requests
 * publication with a complete fact sheet in the browser, a maintainer
 * approves it, the entry page shows the readable sheet and the "documented"
 * badge, a reader filters the leaderboard to open-weights fine-tuned systems
 * that used no source data; then the maintainer checks a reproduction on the
 * entry's page and the badge becomes "reproduced", filterable too.
 */

const PREDICTIONS = path.join(__dirname, "..", "data", "demo-predictions");

const board = (page: Page) => page.getByRole("table", { name: /leaderboard (of|on) / });

test.describe.configure({ mode: "serial" });

let owner: TestUser;
let maintainer: TestUser;
let entryId = "";
const systemName = `Sheet tuned ${Date.now().toString(36)}`;

test.beforeAll(async () => {
  await waitForBaselines(120_000);
  owner = await createTestUser({ label: "sheet-owner" });
  maintainer = await createTestUser({ label: "sheet-reviewer", role: "MAINTAINER" });
});

test.afterAll(async () => {
  await deleteTestUsers([owner.id, maintainer.id]);
});

test("[FACT SHEET] a participant requests publication with a fact sheet; after approval the entry shows it, documented", async ({ playwright, baseURL, page, browser, signInAs }) => {
  test.setTimeout(180_000);
  const { token } = await createTestApiToken(owner.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  // A file the v1.3 publication guard lets through (the bundled demo files are too close to a baseline).
  entryId = await uploadScoredFile(api, "test-open.jsonl", await publishableTestFile("open"));
  await api.dispose();

  await signInAs(owner);
  await page.goto(`/submissions/${entryId}`);
  await page.getByLabel("Method description").fill("A fine-tuned open model that names the entity; no source-collection data.");
  await page.getByLabel("System name").fill(systemName);
  await page.getByLabel("Team", { exact: true }).fill("Sheet testers");
  await page.getByLabel("Approach", { exact: true }).selectOption("fine-tuned-llm");
  await page.getByLabel("Base model", { exact: true }).fill("Open-8B");
  await page.getByLabel("Knowledge cutoff", { exact: true }).fill("December 2023");
  // Written as the leaderboard's size filter reads it, and shown back so.
  await page.getByLabel("Parameters", { exact: true }).fill("1.3B");
  await page.getByLabel("Open weights", { exact: true }).selectOption("yes");
  await page.getByLabel("Used the IRC-Bench train split").selectOption("yes");
  await page.getByLabel("Used the IRC-Bench dev split").selectOption("no");
  await page.getByLabel("Used data from the source oral-history collections").selectOption("no");
  await page.getByLabel("Used Wikidata or Wikipedia beyond the KB").selectOption("no");
  await page.getByLabel("Prompts or configuration (link)").fill("https://example.org/sheet-tuned/config.yaml");
  await page.getByLabel("Compute", { exact: true }).fill("1 GPU, 6 hours");
  await page.getByLabel("Code URL").fill("https://example.org/sheet-tuned");
  await page.getByLabel("No tuning on the test split").selectOption("yes");
  await page.getByLabel("Single run or best of N").selectOption("single-run");
  await page.getByLabel("Seeds", { exact: true }).fill("42");
  await page.getByRole("button", { name: "Request publication" }).click();
  // A bad answer is named beside its field, in the label's words.
  await expect(page.getByRole("alert").filter({ hasText: "Some publication details need fixing" })).toContainText("Knowledge cutoff must be an ISO month (2024-06) or date (2024-06-30).");
  await expect(page.getByLabel("Knowledge cutoff", { exact: true })).toHaveAttribute("aria-invalid", "true");
  await page.getByLabel("Knowledge cutoff", { exact: true }).fill("2023-12");
  await page.getByRole("button", { name: "Request publication" }).click();
  await expect(page.getByTestId("publication-status")).toContainText("Publication requested");
  await expect(page.getByTestId("fact-sheet-complete")).toBeVisible();
  // Pending: the owner may still edit the sheet.
  await page.getByRole("heading", { name: "Edit the fact sheet" }).scrollIntoViewIfNeeded();
  await expect(page.locator('form[aria-labelledby="fact-sheet-edit-heading"]').getByLabel("Parameters", { exact: true })).toHaveValue("1.3B");
  await page.locator('form[aria-labelledby="fact-sheet-edit-heading"]').getByLabel("Compute", { exact: true }).fill("1 GPU, 5 hours");
  await page.getByRole("button", { name: "Save the fact sheet" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Fact sheet saved." })).toBeVisible();

  const context = await browser.newContext({ baseURL });
  await signInContext(context, baseURL ?? "", maintainer);
  const review = await context.newPage();
  await review.goto("/admin/review");
  const card = review.getByTestId("review-request").filter({ hasText: systemName });
  await expect(card.getByTestId("fact-sheet")).toContainText("1 GPU, 5 hours");
  await review.goto(`/submissions/${entryId}`);
  await review.getByRole("button", { name: "Approve" }).click();
  await review.getByRole("button", { name: "Yes, publish it" }).click();
  await expect(review.getByRole("status").first()).toContainText("Approved");
  await context.close();

  // Approved: the owner's sheet is read-only.
  await page.goto(`/submissions/${entryId}`);
  await expect(page.getByTestId("publication-status")).toContainText("Published");
  await expect(page.getByRole("button", { name: "Save the fact sheet" })).toHaveCount(0);

  const anonymous = await browser.newContext({ baseURL });
  const reader = await anonymous.newPage();
  await reader.goto(`/entries/${entryId}`);
  await expect(reader.getByRole("heading", { level: 1 }).getByTestId("tier-badge")).toHaveText(/^documented/);
  const sheet = reader.getByTestId("fact-sheet");
  await expect(sheet).toContainText("Fine-tuned LLM");
  await expect(sheet).toContainText("Open-8B");
  await expect(sheet).toContainText("1.3B");
  await expect(sheet).toContainText("2023-12");
  await expect(sheet).toContainText("1 GPU, 5 hours");
  await expect(reader.getByTestId("fact-sheet-complete")).toBeVisible();
  await anonymous.close();
});

test("[FACT SHEET] a reader filters the leaderboard to open-weights fine-tuned systems without source data; ranks are among them", async ({ page }) => {
  await page.goto("/leaderboard?track=open&scope=all");
  await expect(board(page).getByRole("link", { name: systemName, exact: true })).toBeVisible();
  await page.getByTestId("table-filters").locator("summary").click();
  const filters = page.getByRole("search", { name: "Filter the leaderboard" });
  await filters.getByRole("combobox", { name: "Approach", exact: true }).selectOption("fine-tuned-llm");
  await filters.getByRole("combobox", { name: "Weights", exact: true }).selectOption("yes");
  await filters.getByRole("combobox", { name: "Source-collection data" }).selectOption("no");
  await expect(page).toHaveURL(/approach=fine-tuned-llm/);
  await expect(page).toHaveURL(/source=no/);
  await expect(page.getByTestId("cohort-note")).toContainText("ranks, marks and intervals are recomputed");
  // The system's own cell: other rows mention it in their rank reasons.
  const cell = board(page).getByRole("rowheader", { name: systemName });
  await expect(cell.getByTestId("tier-badge")).toHaveText(/^documented/);
  // Only baselines (weights not stated) and matching entries remain: no closed-weights entry of other specs.
  for (const text of await board(page).getByTestId("entry-details").allTextContents()) {
    expect(text).not.toContain("closed weights");
  }
  // The downloads and the API follow the same filters.
  await expect(page.getByRole("link", { name: "CSV" })).toHaveAttribute("href", /approach=fine-tuned-llm.*source=no|source=no.*approach=fine-tuned-llm/);
  await filters.getByRole("combobox", { name: "Source-collection data" }).selectOption("yes");
  await expect(page).toHaveURL(/source=yes/);
  await expect(board(page).getByRole("link", { name: systemName, exact: true })).toHaveCount(0);
});

test("[FACT SHEET] a maintainer checks a reproduction: different outcomes are refused with a count, the same ones make the entry reproduced", async ({ playwright, baseURL, browser }) => {
  test.setTimeout(180_000);
  const { token } = await createTestApiToken(maintainer.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  const original = (await publishableTestFile("open")).toString("utf8").split("\n").filter((line) => line.trim() !== "");
  // The same answers in another order: other bytes, the same per-sample outcomes.
  const reproductionId = await uploadScoredFile(api, "rerun.jsonl", Buffer.from(`${[...original].reverse().join("\n")}\n`));
  const weak = await readFile(path.join(PREDICTIONS, "test-open-weak.jsonl"));
  const differentId = await uploadScoredFile(api, "rerun-weak.jsonl", weak);
  await api.dispose();

  const context = await browser.newContext({ baseURL });
  await signInContext(context, baseURL ?? "", maintainer);
  const page = await context.newPage();
  await page.goto(`/submissions/${entryId}`);
  const panel = page.getByTestId("reproduction-panel");
  await expect(panel.getByTestId("current-tier")).toHaveText("documented");
  await panel.getByLabel("or a submission id").fill(differentId);
  await panel.getByRole("button", { name: "Check the reproduction" }).click();
  await expect(panel.getByTestId("reproduction-message")).toHaveText(/^Not reproduced: \d+ of \d+ samples have a different outcome in the reproduction\. The tier is unchanged\.$/);
  await expect(panel.getByTestId("current-tier")).toHaveText("documented");

  await panel.getByLabel("Your scored test submissions").selectOption(reproductionId);
  await panel.getByLabel("Reason or note (audit log)").fill("Re-ran the released code");
  await panel.getByRole("button", { name: "Check the reproduction" }).click();
  await expect(panel.getByTestId("reproduction-message")).toContainText("Reproduced: every per-sample outcome matches");
  await expect(panel.getByTestId("current-tier")).toHaveText("reproduced");
  const audit = await getTestPool().query<{ action: string }>(`SELECT "action" FROM "AuditLog" WHERE "targetId" = $1 AND "action" LIKE 'submission.reproduc%' ORDER BY "createdAt"`, [entryId]);
  expect(audit.rows.map((row) => row.action)).toEqual(["submission.reproduction-refused", "submission.reproduce"]);
  await context.close();

  const anonymous = await browser.newContext({ baseURL });
  const reader = await anonymous.newPage();
  await reader.goto(`/entries/${entryId}`);
  await expect(reader.getByTestId("reproduced-by")).toContainText(`Reproduced by ${maintainer.displayName}`);
  await reader.goto("/leaderboard?track=open&scope=all&tier=reproduced");
  const cell = board(reader).getByRole("rowheader", { name: systemName });
  await expect(cell.getByTestId("tier-badge")).toHaveText(/^reproduced/);
  await expect(board(reader).getByTestId("tier-badge").filter({ hasText: /^documented/ })).toHaveCount(0);
  await anonymous.close();
});
