import { randomBytes } from "node:crypto";
import { expect, getTestPool, test, waitForBaselines } from "./fixtures";

/**
 * What the pages say: examples in the release's own id format, one date
 * format, a quota message that says when the next test submission frees, a
 * /compare picker without entries that can only fail, a visible "New
 * submission" button.
 */

test("[MESSAGES] the home page's example ids are ids of the active release", async ({ page }) => {
  await page.goto("/");
  const examples = await page.locator("pre").allTextContents();
  const ids = examples.flatMap((text) => [...text.matchAll(/"id": "([^"]+)"/g)].map((match) => match[1] ?? ""));
  expect(ids.length).toBeGreaterThanOrEqual(2);
  const { rows } = await getTestPool().query<{ sampleId: string }>(
    `SELECT s."sampleId" FROM "Sample" s JOIN "DatasetRelease" r ON r."id" = s."releaseId" AND r."isActive" WHERE s."sampleId" = ANY($1::text[]) AND s."split" = 'dev'`,
    [ids],
  );
  expect(new Set(rows.map((row) => row.sampleId))).toEqual(new Set(ids));
});

test("[MESSAGES] /compare offers only entries that can be paired: test-split entries, no dev baselines", async ({ page }) => {
  await waitForBaselines(120_000);
  await page.goto("/compare");
  const offered = await page.getByLabel("Entry A").locator("option:not([disabled])").evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value));
  expect(offered.length).toBeGreaterThan(1);
  const { rows } = await getTestPool().query<{ id: string; split: string }>(`SELECT "id", "split"::text AS "split" FROM "Submission" WHERE "id" = ANY($1::text[])`, [offered]);
  expect(rows.map((row) => row.split)).toEqual(offered.map(() => "test"));
  const devBaselines = await getTestPool().query<{ count: string }>(`SELECT count(*) FROM "Submission" WHERE "isBaseline" AND "split" = 'dev'`);
  expect(Number(devBaselines.rows[0]?.count)).toBeGreaterThan(0);
});

test("[MESSAGES] with no test submission left, /submit says when the next one frees, in ISO UTC", async ({ page, createUser, signInAs }) => {
  const user = await createUser({ label: "quota" });
  const release = await getTestPool().query<{ id: string }>(`SELECT "id" FROM "DatasetRelease" WHERE "isActive" LIMIT 1`);
  const releaseId = release.rows[0]?.id ?? "";
  // Five test submissions of the last 24 hours (TEST_QUOTA_PER_DAY=5), the oldest 23 hours ago.
  const oldest = new Date(Date.now() - 23 * 60 * 60 * 1000);
  // Each with its quota ledger charge, which is what the quota is counted from.
  for (let index = 0; index < 5; index += 1) {
    const submissionId = `cquota${randomBytes(10).toString("hex")}`;
    const createdAt = new Date(oldest.getTime() + index * 60_000);
    await getTestPool().query(
      `INSERT INTO "Submission" ("id", "userId", "releaseId", "split", "track", "status", "fileSha256", "fileBytes", "originalName", "sampleCount", "createdAt", "queuedAt", "failureKind", "failureReason")
       VALUES ($1, $2, $3, 'test', 'open', 'FAILED', $4, 10, 'quota.jsonl', 1, $5, $5, 'INVALID', 'quota fixture')`,
      [submissionId, user.id, releaseId, randomBytes(32).toString("hex"), createdAt],
    );
    await getTestPool().query(
      `INSERT INTO "QuotaLedgerEntry" ("id", "userId", "releaseId", "kind", "amount", "windowAt", "submissionId", "createdAt")
       VALUES ($1, $2, $3, 'CHARGE', 1, $4, $5, $4)`,
      [`cledger${randomBytes(10).toString("hex")}`, user.id, releaseId, createdAt, submissionId],
    );
  }
  await signInAs(user);
  await page.goto("/submit");
  const freeAt = new Date(oldest.getTime() + 24 * 60 * 60 * 1000).toISOString();
  const expected = `${freeAt.slice(0, 16).replace("T", " ")} UTC`;
  await expect(page.getByTestId("quota-next-free")).toHaveText(
    `You have used your 5 test submissions of the last 24 hours. The next one frees at ${expected}. Dev submissions cost no test quota.`,
  );

  // Dates on the submission pages read as everywhere else (UTC, to the minute), not en-GB.
  await page.goto("/submissions");
  const submitted = await page.locator("tbody tr td:last-child").allTextContents();
  expect(submitted.length).toBe(5);
  for (const text of submitted) expect(text).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);

  // The "New submission" button is readable: white text on the accent.
  const button = page.getByRole("link", { name: "New submission" });
  const colors = await button.evaluate((element) => ({ color: getComputedStyle(element).color, background: getComputedStyle(element).backgroundColor }));
  expect(colors).toEqual({ color: "rgb(255, 255, 255)", background: "rgb(29, 78, 216)" });
});
