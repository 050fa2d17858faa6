import path from "node:path";
import { readFile } from "node:fs/promises";
import type { Page } from "@playwright/test";
import { expect, getTestPool, test } from "./fixtures";

/**
 * The participant's workbench on the demo release: the instance
 * browser and error classes of a dev run, comparing two dev runs, My runs, and
 * nothing per sample for a test run. Demo files: data/demo-predictions/README.md.
 */
const PREDICTIONS = path.join(__dirname, "..", "data", "demo-predictions");
const SCORING_TIMEOUT = 60_000;

async function submitOnSite(page: Page, file: string): Promise<string> {
  await page.goto("/submit");
  await page.getByLabel("Prediction file (JSON Lines)").setInputFiles(path.join(PREDICTIONS, file));
  await expect(page.getByTestId("detected")).toBeVisible();
  await page.getByRole("button", { name: /Submit to the (dev|test) split/ }).click();
  await expect(page).toHaveURL(/\/submissions\/[a-z0-9]+$/);
  await expect(page.getByTestId("submission-status")).toHaveText("scored", { timeout: SCORING_TIMEOUT });
  return new URL(page.url()).pathname.split("/").pop() ?? "";
}

test("[WORKBENCH] a participant filters their dev run to Person samples with wrong-type errors and reads a narrative", async ({ page, createUser, signInAs }) => {
  const ada = await createUser({ label: "wb-ada" });
  await signInAs(ada);
  await submitOnSite(page, "dev-open.jsonl");
  await page.getByTestId("browse-samples").click();
  await expect(page).toHaveURL(/\/samples$/);

  // dev-open.jsonl, counted by hand: 15 correct, 2 partial, 1 empty, 1 wrong type, 1 same type, 7 not in KB.
  const counts = page.getByTestId("error-class-counts");
  await expect(counts.getByRole("row", { name: /^wrong type 1/ })).toBeVisible();
  await expect(counts.getByRole("row", { name: /^not in KB 7/ })).toBeVisible();
  await expect(page.getByRole("table", { name: "Type confusion" })).toBeVisible();
  await expect(page.getByTestId("sample-row")).toHaveCount(27);

  await page.getByLabel("Entity type", { exact: true }).selectOption("Person");
  await page.getByLabel("Error class", { exact: true }).selectOption("wrong_type");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(page).toHaveURL(/type=Person/);
  const rows = page.getByTestId("sample-row");
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toHaveAttribute("data-sample-id", "demo-0179");
  await expect(row.getByTestId("narrative")).toContainText("As a graduate student at Princeton in 1952");
  await expect(row.getByTestId("answer")).toContainText("Nuclear weapon");
  await expect(row.getByTestId("answer")).toContainText("names a KB Other");
  await expect(row).toContainText("Albert Einstein");
  await expect(row.getByTestId("error-class")).toHaveText("wrong type");

  // The export is the filtered rows.
  const download = page.waitForEvent("download");
  await page.getByRole("link", { name: "CSV" }).click();
  const csv = await readFile((await (await download).path()) ?? "", "utf8");
  const lines = csv.trimEnd().split("\r\n");
  expect(lines).toHaveLength(2);
  expect(lines[1]).toMatch(/^demo-0179,/);
});

test("[WORKBENCH] a participant compares two dev runs and reads which Person samples the new run broke, and what it answered instead", async ({ page, createUser, signInAs }) => {
  const bo = await createUser({ label: "wb-bo" });
  await signInAs(bo);
  await submitOnSite(page, "dev-open.jsonl");
  await submitOnSite(page, "dev-open-v2.jsonl");

  await page.goto("/runs");
  await expect(page.getByRole("group", { name: "Primary metric of your runs over time" })).toBeVisible();
  await expect(page.getByTestId("run-row")).toHaveCount(2);
  const note = page.getByLabel(/^Note on dev-open-v2\.jsonl/);
  await note.fill("added alias lookup");
  await page.getByTestId("run-row").filter({ hasText: "dev-open-v2.jsonl" }).getByRole("button", { name: "Save" }).click();
  await expect(page.getByTestId("run-row").filter({ hasText: "dev-open-v2.jsonl" }).getByRole("status")).toHaveText("Saved.");
  await page.reload();
  await expect(page.getByLabel(/^Note on dev-open-v2\.jsonl/)).toHaveValue("added alias lookup");

  await page.getByLabel("Earlier run: dev-open.jsonl").check();
  await page.getByLabel("Newer run: dev-open-v2.jsonl").check();
  await page.getByRole("button", { name: "Compare the two chosen dev runs" }).click();
  await expect(page).toHaveURL(/\/submissions\/compare\?(?=.*old=)(?=.*new=)/);
  await expect(page.getByTestId("fixed-count")).toHaveText("5");
  await expect(page.getByTestId("broken-count")).toHaveText("3");
  await expect(page.getByTestId("sample-row")).toHaveCount(8);

  await page.getByLabel("Change", { exact: true }).selectOption("broken");
  await page.getByLabel("Entity type", { exact: true }).selectOption("Person");
  await page.getByRole("button", { name: "Apply" }).click();
  const rows = page.getByTestId("sample-row");
  await expect(rows).toHaveCount(2);
  const einstein = page.locator('[data-sample-id="demo-0003"]');
  await expect(einstein.getByTestId("answer")).toContainText("Germany");
  await expect(einstein.getByTestId("other-answer")).toContainText("Albert Einstein");
  const king = page.locator('[data-sample-id="demo-0251"]');
  await expect(king.getByTestId("answer")).toContainText("Malcolm X");
  await expect(king.getByTestId("other-answer")).toContainText("Rev. Martin Luther King Jr.");
  await expect(king.getByTestId("narrative")).toContainText("Reflecting Pool");
});

test("[WORKBENCH] a test submission has no samples page, and its HTML and RSC payload carry no per-sample data", async ({ page, createUser, signInAs }) => {
  const cy = await createUser({ label: "wb-cy" });
  await signInAs(cy);
  const id = await submitOnSite(page, "test-open.jsonl");
  const testIds = (await readFile(path.join(__dirname, "..", "data", "demo-release", "test.jsonl"), "utf8"))
    .trim()
    .split("\n")
    .map((line) => (JSON.parse(line) as { id: string }).id);
  const check = async (url: string, headers: Record<string, string> = {}) => {
    const response = await page.request.get(url, { headers });
    const body = await response.text();
    const leaked = testIds.filter((sampleId) => body.includes(sampleId));
    expect(leaked, `${url} names test samples`).toEqual([]);
    expect(body).not.toContain('data-testid="sample-row"');
    return response.status();
  };
  expect(await check(`/api/submissions/${id}/samples`)).toBe(404);
  expect(await check(`/api/submissions/${id}/samples?format=csv`)).toBe(404);
  expect(await check(`/api/submissions/${id}/analysis`)).toBe(404);
  expect(await check(`/submissions/${id}/samples`)).toBe(404);
  expect(await check(`/submissions/${id}`)).toBe(200);
  expect(await check(`/submissions/${id}`, { RSC: "1" })).toBe(200);
  await expect(page.getByTestId("browse-samples")).toHaveCount(0);
  await expect(page.getByRole("heading", { name: "Error classes" })).toHaveCount(0);

  // After publication its owner sees rounded shares of the classes, still nothing per sample.
  await getTestPool().query(`UPDATE "Submission" SET publication = 'PUBLISHED', "publishedAt" = now(), "systemName" = 'wb test' WHERE id = $1`, [id]);
  await page.reload();
  await expect(page.getByRole("table", { name: "Error class shares" })).toBeVisible();
  expect(await check(`/submissions/${id}`)).toBe(200);
  expect(await check(`/submissions/${id}`, { RSC: "1" })).toBe(200);
  expect(await check(`/api/submissions/${id}/samples`)).toBe(404);
});
