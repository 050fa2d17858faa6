import path from "node:path";
import { readFile } from "node:fs/promises";
import { apiContextFor, createTestApiToken, expect, getTestPool, test } from "./fixtures";

const PREDICTIONS = path.join(__dirname, "..", "data", "demo-predictions");

/**
 * Identity and quota journeys: a maintainer approves waiting accounts with
 * one click each (confirmed aloud, focus on the next account, audited), and
 * a participant reads every charge, refund and grant of their test quota on
 * the account page (and the refund on the submission's page) after a
 * maintainer granted and refunded with reasons.
 */

test("[USERS] a maintainer approves waiting accounts with one click each; focus moves to the next one", async ({ page, createUser, signInAs }) => {
  const maintainer = await createUser({ label: "approver", role: "MAINTAINER" });
  const first = await createUser({ label: "waiting first" });
  const second = await createUser({ label: "waiting second" });
  await signInAs(maintainer);
  await page.goto("/admin/users");

  const waiting = page.getByRole("list", { name: "Accounts waiting for approval" });
  await expect(waiting.getByTestId("waiting-account").filter({ hasText: first.displayName })).toBeVisible();
  // Waiting accounts lead the table too.
  const firstRowHeader = page.locator("tbody tr th").first();
  await expect(firstRowHeader).not.toHaveText(maintainer.displayName);

  await waiting.getByRole("button", { name: `Approve ${first.displayName}` }).click();
  await expect(page.getByTestId("approval-confirmation")).toHaveText(`Approved ${first.displayName}: test submissions are open to this account now.`);
  await expect(waiting.getByTestId("waiting-account").filter({ hasText: first.displayName })).toHaveCount(0);
  // Focus is on an Approve button of the list (the account that took the row's place), not lost to the page.
  await expect(page.locator(":focus")).toHaveAttribute("data-approve", "true");
  await expect(waiting.getByRole("button", { name: `Approve ${second.displayName}` })).toBeVisible();

  const { rows } = await getTestPool().query<{ approvedAt: Date | null }>(`SELECT "approvedAt" FROM "User" WHERE "id" = $1`, [first.id]);
  expect(rows[0]?.approvedAt).not.toBeNull();
  const audit = await getTestPool().query<{ actorId: string }>(`SELECT "actorId" FROM "AuditLog" WHERE "action" = 'user.approved' AND "targetId" = $1`, [first.id]);
  expect(audit.rows.map((row) => row.actorId)).toEqual([maintainer.id]);
  await expect(page.locator("tbody tr").filter({ hasText: first.email })).toContainText("approved");
});

test("[QUOTA] a participant sees the charge of an upload, a maintainer's refund and grant, with reasons, on the account page", async ({
  page,
  playwright,
  baseURL,
  createUser,
  signInAs,
}) => {
  test.setTimeout(120_000);
  const maintainer = await createUser({ label: "quota maintainer", role: "MAINTAINER" });
  const participant = await createUser({ label: "quota participant" });
  const { token } = await createTestApiToken(participant.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  const buffer = await readFile(path.join(PREDICTIONS, "test-open.jsonl"));
  const created = await api.post("/api/submissions", { multipart: { file: { name: "ledger-test-open.jsonl", mimeType: "application/jsonl", buffer } } });
  expect(created.status(), await created.text()).toBe(201);
  const { id: submissionId } = (await created.json()) as { id: string };

  await signInAs(maintainer);
  await page.goto("/admin/users");
  await page.getByRole("link", { name: `ledger, grant, refund: test quota of ${participant.displayName}` }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(`Test quota of ${participant.displayName}`);
  await page.getByLabel("Extra test submissions").fill("2");
  await page.getByLabel("Reason (the participant reads it)").fill("reproduction study");
  await page.getByRole("button", { name: "Grant" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Granted 2 extra test submissions." })).toBeVisible();
  await page.getByLabel("Reason for refunding ledger-test-open.jsonl").fill("gold fixed after upload");
  await page.getByRole("button", { name: "Refund ledger-test-open.jsonl" }).click();
  // The refunded charge's row says so in place of its form, and the refund row is listed above it.
  await expect(page.locator('tr[data-kind="CHARGE"]').getByTestId("charge-refunded")).toHaveText("refunded");
  await expect(page.locator('tr[data-kind="REFUND"]')).toContainText("gold fixed after upload");
  const audit = await getTestPool().query<{ action: string }>(
    `SELECT "action" FROM "AuditLog" WHERE "actorId" = $1 AND "action" LIKE 'quota.%' ORDER BY "createdAt"`,
    [maintainer.id],
  );
  expect(audit.rows.map((row) => row.action)).toEqual(["quota.granted", "quota.refunded"]);

  await signInAs(participant);
  await page.goto("/account");
  const ledger = page.getByRole("table", { name: "Your test quota ledger, newest first" });
  await expect(ledger.locator('tr[data-kind="CHARGE"]')).toContainText("ledger-test-open.jsonl");
  await expect(ledger.locator('tr[data-kind="CHARGE"]')).toContainText("your upload");
  await expect(ledger.locator('tr[data-kind="REFUND"]')).toContainText("gold fixed after upload");
  await expect(ledger.locator('tr[data-kind="GRANT"]')).toContainText("2 extra");
  await expect(ledger.locator('tr[data-kind="GRANT"]')).toContainText("reproduction study");
  await expect(page.getByRole("region", { name: "Test quota ledger" })).toContainText("7 left");
  // The submission's page reads the same ledger: refunded, with the maintainer's reason (not "counts toward your quota").
  await page.goto(`/submissions/${submissionId}`);
  await expect(page.getByTestId("submission-quota")).toHaveText("refunded to your test quota: gold fixed after upload");

  // The API says the same, and only about the caller.
  const body = (await (await api.get("/api/quota/ledger")).json()) as { entries: { kind: string; submissionId: string | null }[] };
  expect(body.entries.map((entry) => entry.kind).sort()).toEqual(["CHARGE", "GRANT", "REFUND"]);
  expect(body.entries.filter((entry) => entry.submissionId !== null).every((entry) => entry.submissionId === submissionId)).toBe(true);
});
