import path from "node:path";
import { readFile } from "node:fs/promises";
import type { APIRequestContext } from "@playwright/test";
import { apiContextFor, createTestApiToken, expect, getTestPool, test, withScoringPaused, type TestUser } from "./fixtures";

const PREDICTIONS = path.join(__dirname, "..", "data", "demo-predictions");
const SCORING_TIMEOUT = 60_000;

async function uploadDev(api: APIRequestContext): Promise<string> {
  const buffer = await readFile(path.join(PREDICTIONS, "dev-open.jsonl"));
  const created = await api.post("/api/submissions", { multipart: { file: { name: "dev-open.jsonl", mimeType: "application/jsonl", buffer } } });
  expect(created.status(), await created.text()).toBe(201);
  return ((await created.json()) as { id: string }).id;
}

async function statusOf(api: APIRequestContext, id: string): Promise<string> {
  return ((await (await api.get(`/api/submissions/${id}`)).json()) as { status: string }).status;
}

async function tokenClient(playwright: Parameters<typeof apiContextFor>[0], baseURL: string | undefined, user: TestUser): Promise<APIRequestContext> {
  const { token } = await createTestApiToken(user.id, { name: "queue e2e" });
  return apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
}

test("[ADMIN] a maintainer sees a failed submission on /admin/queue and retries it", async ({ page, playwright, baseURL, createUser, signInAs }) => {
  const owner = await createUser({ label: "queue-owner" });
  const api = await tokenClient(playwright, baseURL, owner);
  const id = await uploadDev(api);
  await expect.poll(() => statusOf(api, id), { timeout: SCORING_TIMEOUT }).toBe("SCORED");
  // As the reconciler leaves a submission whose worker died every time it was started.
  await getTestPool().query(
    `UPDATE "Submission" SET "status" = 'FAILED', "failureKind" = 'INTERNAL', "attempts" = 20, "finishedAt" = now(),
       "failureReason" = 'Scoring was started 20 times and never finished (e2e).' WHERE "id" = $1`,
    [id],
  );

  const maintainer = await createUser({ label: "queue-maintainer", role: "MAINTAINER" });
  await signInAs(maintainer);
  await page.goto("/admin/queue");
  await expect(page.getByRole("heading", { name: "Scoring queue" })).toBeVisible();
  await expect(page.getByRole("table", { name: /Every worker heard from/ })).toContainText("alive");
  const row = page.getByTestId(`failed-${id}`);
  await expect(row).toContainText(owner.displayName);
  await expect(row).toContainText("never finished (e2e)");
  await expect(row.getByRole("link", { name: id })).toHaveAttribute("href", `/submissions/${id}`);

  // Retry asks for confirmation first; Cancel leaves everything as it was.
  await row.getByRole("button", { name: `Retry ${id}` }).click();
  await row.getByRole("button", { name: "Cancel" }).click();
  await expect(row.getByRole("button", { name: "Confirm retry" })).toHaveCount(0);
  await row.getByRole("button", { name: `Retry ${id}` }).click();
  await row.getByLabel("Reason for the audit log").fill("e2e: worker fixed");
  await row.getByRole("button", { name: "Confirm retry" }).click();
  await expect(row.getByRole("status")).toContainText("Queued for scoring again");

  await expect.poll(() => statusOf(api, id), { timeout: SCORING_TIMEOUT }).toBe("SCORED");
  await page.goto("/admin/queue");
  await expect(page.getByTestId(`failed-${id}`)).toHaveCount(0);
  await page.goto("/admin/audit");
  // The audit log names the submission by its system or file and links to it.
  const audit = page.getByRole("row").filter({ has: page.locator(`a[href="/submissions/${id}"]`) });
  await expect(audit.filter({ hasText: "submission.retry" })).toContainText("e2e: worker fixed");
  await api.dispose();
});

test("[ADMIN] a participant cannot open /admin/queue; a visitor is sent to sign in", async ({ page, createUser, signInAs }) => {
  await page.goto("/admin/queue");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Fadmin%2Fqueue/);
  const participant = await createUser({ label: "queue-participant" });
  await signInAs(participant);
  const response = await page.goto("/admin/queue");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Scoring queue" })).toHaveCount(0);
});

test("[SUBMISSIONS] the owner sees a queued submission's position in the queue until it is scored", async ({ page, playwright, baseURL, createUser, signInAs }) => {
  const owner = await createUser({ label: "queue-position" });
  await signInAs(owner);
  const api = await tokenClient(playwright, baseURL, owner);
  const second = await withScoringPaused(async () => {
    await uploadDev(api);
    const id = await uploadDev(api);
    await page.goto(`/submissions/${id}`);
    await expect(page.getByTestId("submission-status")).toHaveText("queued");
    await expect(page.getByTestId("queue-position")).toContainText("Position in the scoring queue: 2 of 2 waiting (1 ahead of it)");
    return id;
  });
  await expect(page.getByTestId("submission-status")).toHaveText("scored", { timeout: SCORING_TIMEOUT });
  await expect(page.getByTestId("queue-position")).toHaveCount(0);
  expect(await statusOf(api, second)).toBe("SCORED");
  await api.dispose();
});
