import { apiContextFor, createTestApiToken, createTestUser, deleteTestUsers, expect, getTestPool, signInContext, test, waitForBaselines, type TestUser } from "./fixtures";
import { publishableTestFile, uploadScoredFile } from "./fixtures/scored-upload";

/**
 * Issue 35, "every flow ends where the user expects": after asking to publish, the owner's page says the request
 * went and where the decision will show, with focus on it (the form it was sent from is gone); after approving in
 * the review queue (the request's card leaves the queue), the maintainer reads what happened, in focus, with a link
 * to the public entry page. At a phone's and a laptop's width. (Sign-up landing signed in: e2e/auth.spec.ts.)
 */

const WIDTHS = [390, 1366] as const;

let owner: TestUser;
let maintainer: TestUser;

test.beforeAll(async () => {
  await waitForBaselines(120_000);
  owner = await createTestUser({ label: "flow-owner" });
  maintainer = await createTestUser({ label: "flow-maintainer", role: "MAINTAINER" });
});

test.afterAll(async () => {
  await getTestPool().query(`DELETE FROM "Submission" WHERE "userId" = $1`, [owner.id]);
  await deleteTestUsers([owner.id, maintainer.id]);
});

for (const [index, width] of WIDTHS.entries()) {
  test(`[FLOWS] a publication request and its approval each end on a focused message that says what happened, at ${width} px`, async ({ browser, baseURL, playwright }) => {
    test.setTimeout(180_000);
    const { token } = await createTestApiToken(owner.id);
    const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
    // Two different files the v1.3 guard lets through: the second would otherwise repeat the first's answers.
    const track = index === 0 ? "open" : "closed";
    const id = await uploadScoredFile(api, `test-${track}.jsonl`, await publishableTestFile(track, index));
    await api.dispose();
    const systemName = `Flow ${width} ${Date.now().toString(36)}`;

    const ownerContext = await browser.newContext({ baseURL, viewport: { width, height: 844 } });
    await signInContext(ownerContext, baseURL ?? "", owner);
    const page = await ownerContext.newPage();
    await page.goto(`/submissions/${id}`);
    await page.getByLabel("System name").fill(systemName);
    await page.getByLabel("Method description").fill("Dense retrieval over entity descriptions, then a reranker.");
    await page.getByRole("button", { name: "Request publication" }).click();
    const requested = page.getByTestId("publication-requested");
    await expect(requested).toBeFocused();
    await expect(requested).toHaveAttribute("role", "status");
    await expect(requested).toContainText(`Request sent: a maintainer will review “${systemName}”.`);
    await expect(requested).toBeInViewport();
    await expect(page.getByRole("button", { name: "Request publication" })).toHaveCount(0);
    await ownerContext.close();

    const maintainerContext = await browser.newContext({ baseURL, viewport: { width, height: 844 } });
    await signInContext(maintainerContext, baseURL ?? "", maintainer);
    const review = await maintainerContext.newPage();
    await review.goto("/admin/review");
    const card = review.getByTestId("review-request").filter({ hasText: systemName });
    await card.locator("summary").first().click();
    await card.getByRole("button", { name: "Approve" }).click();
    await card.getByRole("button", { name: "Yes, publish it" }).click();
    const done = review.getByTestId("review-done");
    await expect(done).toBeFocused();
    await expect(done).toHaveAttribute("role", "status");
    await expect(done).toContainText(`“${systemName}”: Approved: the entry is on the public leaderboard.`);
    await expect(review).toHaveURL(new RegExp(`/admin/review\\?done=approve&submission=${id}$`));
    await expect(review.getByTestId("review-request").filter({ hasText: systemName })).toHaveCount(0);
    await done.getByRole("link", { name: "Open its public entry page" }).click();
    await expect(review).toHaveURL(new RegExp(`/entries/${id}$`));
    await expect(review.getByRole("heading", { level: 1 })).toContainText(systemName);
    await maintainerContext.close();
  });
}
