import path from "node:path";
import { readFile } from "node:fs/promises";
import type { APIRequestContext, Page } from "@playwright/test";
import { apiContextFor, createTestApiToken, expect, getTestPool, signInContext, test, waitForBaselines } from "./fixtures";
import { publishableTestFile } from "./fixtures/scored-upload";

const PREDICTIONS = path.join(__dirname, "..", "data", "demo-predictions");
const SCORING_TIMEOUT = 60_000;

async function uploadOnSite(page: Page, file: string, bytes?: Buffer): Promise<void> {
  await page.goto("/submit");
  const input = page.getByLabel("Prediction file (JSON Lines)");
  await (bytes ? input.setInputFiles({ name: file, mimeType: "application/jsonl", buffer: bytes }) : input.setInputFiles(path.join(PREDICTIONS, file)));
  await expect(page.getByTestId("detected")).toBeVisible();
}

async function waitForScored(page: Page): Promise<void> {
  await expect(page.getByTestId("submission-status")).toHaveText("scored", { timeout: SCORING_TIMEOUT });
}

async function pollStatus(api: APIRequestContext, id: string): Promise<string> {
  const response = await api.get(`/api/submissions/${id}`);
  const body = (await response.json()) as { status: string };
  return body.status;
}

test("[SUBMISSIONS] a participant uploads a dev file and reads per-sample feedback", async ({ page, createUser, signInAs }) => {
  const ada = await createUser({ label: "ada" });
  await signInAs(ada);
  await uploadOnSite(page, "dev-open.jsonl");
  await expect(page.getByTestId("detected")).toContainText("open-world");
  await expect(page.getByTestId("detected")).toContainText("dev");
  await page.getByRole("button", { name: "Submit to the dev split" }).click();
  await expect(page).toHaveURL(/\/submissions\/[a-z0-9]+$/);
  await waitForScored(page);

  const overall = page.getByRole("table", { name: "Overall scores" });
  await expect(overall).toContainText("55.6");
  // The demo's dev types are small: their bootstrap intervals are labelled unreliable.
  await expect(page.getByTestId("unreliable-interval").first()).toBeVisible();
  await page.getByTestId("browse-samples").click();
  const samples = page.getByTestId("sample-browser");
  await expect(samples.locator("tbody tr")).toHaveCount(27);
  await page.getByLabel("Right / wrong", { exact: true }).selectOption("wrong");
  await page.getByRole("button", { name: "Apply" }).click();
  await expect(samples.locator("tbody tr")).toHaveCount(12);
  await expect(samples).toContainText("no match");
});

test("[SUBMISSIONS] an invalid file is refused with every problem and its line, and nothing is queued", async ({ page, createUser, signInAs }) => {
  const bea = await createUser({ label: "bea" });
  await signInAs(bea);
  await uploadOnSite(page, "invalid-open.jsonl");
  await page.getByRole("button", { name: /Submit/ }).click();
  const problems = page.getByTestId("upload-problems");
  await expect(problems).toContainText("line 3:");
  await expect(problems).toContainText("line 5:");
  await expect(problems).toContainText("first seen on line");
  await expect(problems).toContainText("line 6:");
  await expect(problems).toContainText("line 7:");
  await expect(problems).toContainText("missing");
  const count = await getTestPool().query(`SELECT count(*)::int AS n FROM "Submission" WHERE "userId" = $1`, [bea.id]);
  expect(count.rows[0].n).toBe(0);
});

test("[SUBMISSIONS] a test file is scored with intervals and baseline comparisons, published after review, and shown publicly", async ({
  page,
  browser,
  baseURL,
  createUser,
  signInAs,
}) => {
  await waitForBaselines(SCORING_TIMEOUT);
  const cyd = await createUser({ label: "cyd" });
  const maintainer = await createUser({ label: "maint", role: "MAINTAINER" });
  await signInAs(cyd);
  // A closed-track file the v1.3 publication guard lets through (test-closed.jsonl is too close to a baseline).
  await uploadOnSite(page, "test-closed.jsonl", await publishableTestFile("closed"));
  await expect(page.getByTestId("quota")).toContainText("Test submissions left: 5");
  await expect(page.getByTestId("detected")).toContainText("closed-world");
  await page.getByRole("button", { name: "Submit to the test split" }).click();
  await waitForScored(page);
  const submissionUrl = page.url();

  // The owner's numbers come from the feedback slice (protocol section 12, v1.3: keyed by the gold entity, HMAC of
  // "irc-bench-demo/" + its qid under the development secret below 0.25): 14 of the 56 test samples (42 ranking).
  // This file ranks the gold first on every fourth sample (14 of 56: 1 in the feedback slice, 13 in the ranking slice)
  // and second on 14 others (4 in the feedback slice, 10 in the ranking slice): Hit@1 1/14 = 7.1%, Hit@3 5/14 = 35.7%.
  const overall = page.getByRole("table", { name: "Overall scores" });
  await expect(overall).toContainText("Feedback estimate on the feedback slice, n = 14");
  await expect(overall).toContainText("7.1");
  await expect(overall).toContainText("35.7");
  // Not the ranking slice's 13/42 = 31.0%.
  await expect(overall).not.toContainText("31.0");
  await expect(page.getByText("Significance against the baselines")).toBeVisible();
  await expect(page.getByRole("row", { name: /BM25 over entity names/ }).first()).toBeVisible();
  await expect(page.getByTestId("browse-samples")).toHaveCount(0);
  // Protocol section 12: before publication, rounded overall numbers and verdicts only.
  await expect(page.getByRole("table", { name: "Verdicts against the baselines" }).first()).toBeVisible();
  await expect(page.getByTestId("verdict-row").first()).toContainText(/better than the baseline|worse than the baseline|no significant difference/);
  await expect(page.getByText("Per entity type")).toHaveCount(0);
  await expect(page.getByText("Per collection")).toHaveCount(0);
  await expect(page.getByTestId("disclosure-note")).toContainText("once the entry is published");
  // The share is the release's feedback_fraction (the demo's default, 0.25), not a fixed word.
  await expect(page.getByTestId("disclosure-note")).toContainText("a secret 25% of the test split");
  // Nor in the data the page embeds for its client components: 1/14 = 0.071428... and 5/14 = 0.357142... travel as
  // 0.071 and 0.357, and the ranking slice's 13/42 = 0.309523... and 23/42 = 0.547619... do not travel at all (the whole
  // split's 14/56 and 28/56 are 0.25 and 0.5, which no digit check can tell apart).
  const html = await (await page.request.get(submissionUrl)).text();
  expect(html).not.toContain("0.07142857");
  expect(html).not.toContain("0.35714285");
  expect(html).not.toContain("0.30952380");
  expect(html).not.toContain("0.54761904");
  expect(html).not.toContain("chi2");
  expect(html).not.toContain("pExact");

  const systemName = `Cyd retriever ${Date.now()}`;
  await page.getByLabel("System name").fill(systemName);
  await page.getByLabel("Method description").fill("Dense retrieval over entity descriptions with a cross-encoder reranker.");
  await page.getByLabel("Parameters", { exact: true }).fill("110000000");
  await page.getByLabel("Open weights", { exact: true }).selectOption("yes");
  await page.getByRole("button", { name: "Request publication" }).click();
  await expect(page.getByTestId("publication-status")).toContainText("Publication requested");

  const maintainerContext = await browser.newContext({ baseURL });
  await signInContext(maintainerContext, baseURL ?? "", maintainer);
  const maintainerPage = await maintainerContext.newPage();
  await maintainerPage.goto("/admin/review");
  await maintainerPage.getByRole("link", { name: systemName }).first().click();
  // The queue has a reason field of its own (each request's review panel): wait for the submission page.
  await expect(maintainerPage).toHaveURL(/\/submissions\/[a-z0-9]+$/);
  await maintainerPage.getByLabel("Reason (shown to the owner; required to reject)").fill("Clear description; scores verified.");
  await maintainerPage.getByRole("button", { name: "Approve" }).click();
  await maintainerPage.getByRole("button", { name: "Yes, publish it" }).click();
  await expect(maintainerPage.getByRole("status")).toContainText("Approved: the entry is on the public leaderboard.");
  await maintainerContext.close();

  await page.goto(submissionUrl);
  await expect(page.getByTestId("publication-status")).toContainText("Published");
  // Published: the breakdown appears, with the demo's small groups showing their size only.
  await expect(page.getByText("Per entity type")).toBeVisible();
  await expect(page.getByTestId("suppressed-group").first()).toBeVisible();
  await expect(page.getByRole("table", { name: "Verdicts against the baselines" })).toHaveCount(0);
  const id = submissionUrl.split("/").pop() ?? "";
  const audit = await getTestPool().query(`SELECT action, reason FROM "AuditLog" WHERE "targetId" = $1`, [id]);
  expect(audit.rows).toEqual([{ action: "submission.approve", reason: "Clear description; scores verified." }]);

  const anonymous = await browser.newContext({ baseURL });
  const publicPage = await anonymous.newPage();
  const response = await publicPage.goto(`/entries/${id}`);
  expect(response?.status()).toBe(200);
  await expect(publicPage.getByRole("heading", { level: 1 })).toContainText(systemName);
  // The demo sets min_group_n 5 so that its per-type views show numbers (its test gold is illustrative).
  await expect(publicPage.getByTestId("group-disclosure-note")).toContainText("fewer than 5 samples");
  // The rule the report was disclosed under (publicGroupPolicy): the demo's test split is below 1,000 samples, so §12's floor.
  await expect(publicPage.getByTestId("group-disclosure-note")).toContainText("rounded to 1 point in groups of fewer than 1,000 ranking samples");
  await expect(publicPage.getByRole("table", { name: /Entity types by/ })).toHaveAccessibleName(/made from the shown value v and n .*, n the type's/);
  await expect(publicPage.getByTestId("suppressed-group").first()).toBeVisible();
  await expect(publicPage.getByText("Gold version")).toBeVisible();
  await anonymous.close();
});

test("[SUBMISSIONS] a script submits with an API token, follows the status, and gets no per-sample outcome of a test file", async ({
  playwright,
  baseURL,
  createUser,
}) => {
  const dee = await createUser({ label: "dee" });
  const { token } = await createTestApiToken(dee.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  const buffer = await readFile(path.join(PREDICTIONS, "test-open.jsonl"));
  const created = await api.post("/api/submissions", { multipart: { file: { name: "test-open.jsonl", mimeType: "application/jsonl", buffer } } });
  expect(created.status()).toBe(201);
  const body = (await created.json()) as { id: string; split: string; track: string };
  expect(body).toMatchObject({ split: "test", track: "open" });
  await expect.poll(() => pollStatus(api, body.id), { timeout: SCORING_TIMEOUT }).toBe("SCORED");
  const samples = await api.get(`/api/submissions/${body.id}/samples`);
  expect(samples.status()).toBe(404);
  const quota = (await (await api.get("/api/quota")).json()) as { remaining: number; usedToday: number };
  expect(quota).toMatchObject({ remaining: 4, usedToday: 1 });
  await api.dispose();
});
