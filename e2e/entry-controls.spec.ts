import type { APIRequestContext, Page } from "@playwright/test";
import { apiContextFor, createTestApiToken, createTestUser, deleteTestUsers, expect, getTestPool, signInContext, test, waitForBaselines, type TestUser } from "./fixtures";
import { publicationBody } from "./fixtures/publication";
import { publishableTestFile, uploadScoredFile } from "./fixtures/scored-upload";

/**
 * A participant controls their entries without a maintainer: choose the
 * primary entry of a track (the leaderboard's default view), hide a published
 * entry and show it again, withdraw a pending request, and ask again with the
 * last metadata filled in. A maintainer reviewing it reads the context and
 * the owner's name, confirms destructive actions, and the audit log names
 * systems and people.
 */

async function requestPublication(api: APIRequestContext, id: string, systemName: string): Promise<void> {
  const response = await api.post(`/api/submissions/${id}/publication`, {
    data: publicationBody(systemName, { methodDescription: `${systemName}: BM25 over names with a reranker on descriptions.`, factSheet: { parameters: 110_000_000, openWeights: true } }),
  });
  expect(response.status(), await response.text()).toBe(202);
}

async function approve(api: APIRequestContext, id: string): Promise<void> {
  const response = await api.post(`/api/admin/submissions/${id}/review`, { data: { action: "approve", reason: "Checked." } });
  expect(response.status(), await response.text()).toBe(200);
}

async function auditActions(id: string): Promise<string[]> {
  const { rows } = await getTestPool().query<{ action: string }>(`SELECT "action" FROM "AuditLog" WHERE "targetId" = $1 ORDER BY "createdAt"`, [id]);
  return rows.map((row) => row.action);
}

function openBoard(page: Page, scope: "primary" | "all"): Promise<unknown> {
  return page.goto(`/leaderboard?track=open${scope === "all" ? "&scope=all" : ""}`);
}

const board = (page: Page) => page.getByRole("table", { name: /leaderboard (of|on) / });

test.describe.configure({ mode: "serial" });

let owner: TestUser;
let maintainer: TestUser;
let strongId = "";
let weakId = "";
let closedId = "";
const suffix = Date.now().toString(36);
const strongName = `Primary strong ${suffix}`;
const weakName = `Primary weak ${suffix}`;

test.beforeAll(async () => {
  await waitForBaselines(120_000);
  owner = await createTestUser({ label: "owner" });
  maintainer = await createTestUser({ label: "reviewer", role: "MAINTAINER" });
});

test.afterAll(async () => {
  await deleteTestUsers([owner.id, maintainer.id]);
});

test("[ENTRIES] a participant chooses the primary entry the leaderboard shows, with a toggle for all", async ({ playwright, baseURL, page, signInAs }) => {
  test.setTimeout(180_000);
  const { token } = await createTestApiToken(owner.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  // Three files the v1.3 publication guard lets through, far enough from the baselines and from each
  // other (one account's files are compared on both tracks); the bundled demo files are too close to a baseline.
  strongId = await uploadScoredFile(api, "test-open.jsonl", await publishableTestFile("open", 0));
  weakId = await uploadScoredFile(api, "test-open-weak.jsonl", await publishableTestFile("open", 1));
  closedId = await uploadScoredFile(api, "test-closed.jsonl", await publishableTestFile("closed", 2));
  await requestPublication(api, strongId, strongName);
  await requestPublication(api, weakId, weakName);
  await api.dispose();
  const review = await apiContextFor(playwright, baseURL ?? "", { kind: "session", user: maintainer });
  await approve(review, strongId);
  await approve(review, weakId);
  await review.dispose();

  // No choice yet: both entries are on the default view.
  await openBoard(page, "primary");
  await expect(board(page).getByRole("link", { name: strongName })).toBeVisible();
  await expect(board(page).getByRole("link", { name: weakName })).toBeVisible();

  await signInAs(owner);
  await page.goto(`/submissions/${weakId}`);
  await page.getByRole("button", { name: "Make this my primary open-world entry" }).click();
  await expect(page.getByTestId("primary-status")).toContainText("primary entry");
  await expect(page.getByRole("button", { name: "Make this my primary open-world entry" })).toHaveCount(0);

  await openBoard(page, "primary");
  await expect(board(page).getByRole("link", { name: weakName })).toBeVisible();
  await expect(board(page).getByRole("link", { name: strongName })).toHaveCount(0);
  await page.getByRole("navigation", { name: "Ranking scope" }).getByRole("link", { name: "All entries" }).click();
  await expect(page).toHaveURL(/scope=all/);
  await expect(board(page).getByRole("link", { name: strongName })).toBeVisible();
  await expect(board(page).getByRole("link", { name: weakName })).toBeVisible();

  // Choosing the other entry moves the mark: one primary per track.
  await page.goto(`/submissions/${strongId}`);
  await page.getByRole("button", { name: "Make this my primary open-world entry" }).click();
  await expect(page.getByTestId("primary-status")).toBeVisible();
  const { rows } = await getTestPool().query<{ id: string }>(`SELECT "id" FROM "Submission" WHERE "userId" = $1 AND "isPrimary"`, [owner.id]);
  expect(rows.map((row) => row.id)).toEqual([strongId]);
  await page.goto("/submissions");
  await expect(page.getByRole("row", { name: /test-open\.jsonl/ })).toContainText("primary");
  expect(await auditActions(weakId)).toEqual(["submission.approve", "submission.set-primary"]);
});

test("[ENTRIES] a participant hides a published entry and shows it again; the audit log records both", async ({ page, signInAs }) => {
  await signInAs(owner);
  await page.goto(`/submissions/${weakId}`);
  await page.getByRole("button", { name: "Hide from the leaderboard" }).click();
  await expect(page.getByRole("group", { name: /Confirm: Hide/ })).toContainText("leaves the public leaderboard");
  await page.getByRole("button", { name: "Yes, hide it" }).click();
  await expect(page.getByTestId("publication-status")).toHaveText("You hid it from the leaderboard.");
  await expect(page.getByTestId("submission-visibility")).toContainText("you hid it from the leaderboard");

  await openBoard(page, "all");
  await expect(board(page).getByRole("link", { name: strongName })).toBeVisible();
  await expect(board(page).getByRole("link", { name: weakName })).toHaveCount(0);
  expect((await page.request.get(`/entries/${weakId}`)).status()).toBe(404);

  await page.goto(`/submissions/${weakId}`);
  await page.getByRole("button", { name: "Show on the leaderboard again" }).click();
  await expect(page.getByTestId("publication-status")).toHaveText("Published on the public leaderboard.");
  await openBoard(page, "all");
  await expect(board(page).getByRole("link", { name: weakName })).toBeVisible();
  expect(await auditActions(weakId)).toEqual(["submission.approve", "submission.set-primary", "submission.owner-hide", "submission.owner-unhide"]);
});

test("[ENTRIES] a participant withdraws a pending request and asks again from the last metadata; the maintainer reviews with context", async ({
  browser,
  baseURL,
  page,
  signInAs,
}) => {
  test.setTimeout(120_000);
  const closedName = `Withdrawn ranker ${suffix}`;
  await signInAs(owner);
  await page.goto(`/submissions/${closedId}`);
  await page.getByLabel("System name").fill(closedName);
  await page.getByLabel("Method description").fill("Dense retrieval over entity descriptions, reranked.");
  await page.getByLabel("Parameters", { exact: true }).fill("350000000");
  await page.getByRole("button", { name: "Request publication" }).click();
  await expect(page.getByTestId("publication-status")).toContainText("Publication requested");
  await page.getByRole("button", { name: "Withdraw the publication request" }).click();
  await page.getByRole("button", { name: "Yes, withdraw it" }).click();
  await expect(page.getByTestId("publication-status")).toHaveText("No publication requested.");
  // The form starts from what was sent last.
  await expect(page.getByLabel("System name")).toHaveValue(closedName);
  await expect(page.getByLabel("Parameters", { exact: true })).toHaveValue("350M");
  expect(await auditActions(closedId)).toEqual(["submission.withdraw"]);
  await page.getByRole("button", { name: "Request publication again" }).click();
  await expect(page.getByTestId("publication-status")).toContainText("Publication requested");

  const context = await browser.newContext({ baseURL });
  await signInContext(context, baseURL ?? "", maintainer);
  const review = await context.newPage();
  await review.goto("/admin/review");
  const card = review.getByTestId("review-request").filter({ hasText: closedName });
  await expect(card.getByTestId("review-method")).toHaveText("Dense retrieval over entity descriptions, reranked.");
  await expect(card.getByLabel("Overall scores with 95% intervals")).toContainText("Hit@1");
  await expect(card.getByTestId("review-comparisons")).toContainText(/baseline/i);
  await expect(card.getByTestId("review-other-entries")).toContainText(strongName);
  await expect(card.getByTestId("review-other-entries")).toContainText("primary");
  await expect(card.getByTestId("probe-flags")).toBeVisible();

  // Reject checks the reason before it asks: an empty one is a styled error beside the field (which takes focus), and no confirm opens.
  await card.getByRole("button", { name: "Reject" }).click();
  await expect(card.getByRole("button", { name: "Yes, reject it" })).toHaveCount(0);
  await expect(card.getByRole("alert")).toHaveText("Write the reason for the rejection (at least 5 characters): the owner reads it.");
  await expect(card.getByLabel("Reason (shown to the owner; required to reject)")).toHaveAttribute("aria-invalid", "true");
  await expect(card.getByLabel("Reason (shown to the owner; required to reject)")).toBeFocused();
  await card.getByLabel("Reason (shown to the owner; required to reject)").fill("Please name the reranker in the method.");
  await card.getByRole("button", { name: "Reject" }).click();
  await card.getByRole("button", { name: "Yes, reject it" }).click();
  await expect(review.getByTestId("review-request").filter({ hasText: closedName })).toHaveCount(0);

  // A maintainer on someone else's submission reads about the owner, not "your" quota.
  await review.goto(`/submissions/${closedId}`);
  await expect(review.getByRole("link", { name: "← Review queue" })).toBeVisible();
  await expect(review.getByRole("link", { name: "← My submissions" })).toHaveCount(0);
  await expect(review.getByTestId("submission-owner")).toContainText(owner.displayName);
  await expect(review.getByTestId("submission-quota")).toHaveText(`charged to ${owner.displayName}'s test quota`);
  await expect(review.getByTestId("submission-visibility")).not.toContainText("only you");

  await review.goto("/admin/audit");
  const rejected = review.getByRole("row", { name: /rejected publication/ }).first();
  await expect(rejected.getByTestId("audit-target")).toHaveText(`${closedName} (closed-world test, by ${owner.displayName})`);
  await expect(rejected).toContainText(maintainer.displayName);
  await context.close();

  // After the rejection the owner's form starts from the last request, with the maintainer's note.
  await page.goto(`/submissions/${closedId}`);
  await expect(page.getByTestId("publication-status")).toContainText("Publication was rejected");
  await expect(page.getByText("Maintainer's note: Please name the reranker in the method.")).toBeVisible();
  // The reason sits in the "rejected" banner itself, the line below the status, at 390 and 1366.
  for (const width of [390, 1366]) {
    await page.setViewportSize({ width, height: 900 });
    const banner = page.getByTestId("rejection-banner");
    await expect(banner.getByTestId("publication-status")).toContainText("Publication was rejected");
    await expect(banner.getByTestId("review-reason")).toHaveText("Maintainer's note: Please name the reranker in the method.");
    const status = await banner.getByTestId("publication-status").boundingBox();
    const reason = await banner.getByTestId("review-reason").boundingBox();
    expect(status && reason && reason.y - (status.y + status.height)).toBeLessThan(16);
  }
  await expect(page.getByLabel("System name")).toHaveValue(closedName);
  await expect(page.getByLabel("Method description")).toHaveValue("Dense retrieval over entity descriptions, reranked.");
  await expect(page.getByTestId("submission-quota")).toHaveText("charged to your test quota");
});

test("[ENTRIES] the publication API names the field in a sentence", async ({ playwright, baseURL }) => {
  const { token } = await createTestApiToken(owner.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  const response = await api.post(`/api/submissions/${closedId}/publication`, { data: { methodDescription: "short" } });
  expect(response.status()).toBe(422);
  const body = (await response.json()) as { error: { message: string; problems: { field: string; message: string }[] } };
  expect(body.error.problems).toEqual([
    { field: "methodDescription", message: 'field "methodDescription" describe the method in at least 20 characters' },
    { field: "factSheet", message: 'field "factSheet" is required' },
  ]);
  expect(body.error.message).not.toContain("expected string");
  await api.dispose();
});
