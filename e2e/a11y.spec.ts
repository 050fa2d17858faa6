import AxeBuilder from "@axe-core/playwright";
import type { Browser, Page } from "@playwright/test";
import {
  apiContextFor,
  createTestApiToken,
  createTestUser,
  deleteTestUsers,
  expect,
  getTestPool,
  signInContext,
  test,
  waitForBaselines,
  withScoringPaused,
  type TestUser,
} from "./fixtures";
import { publicationBody } from "./fixtures/publication";
import { publishableTestFile, uploadDemoFile, uploadFile, waitScored } from "./fixtures/scored-upload";

/**
 * Keyboard and assistive use: axe-core on every page, for each kind of user, at
 * a phone's and a laptop's width, with no serious or critical violation; focus
 * moving to the confirm, the error summary or the result after each action and
 * back when it closes; the status change of a submission announced.
 */

const WIDTHS = [390, 1366] as const;
/**
 * One audit: axe on 16 to 25 pages at two widths. On a loaded 2-core machine with two workers an
 * analysis takes 5-15 s, /docs/api's alone 25-30 s, so a whole audit needs 7-8 minutes (it took more
 * than the earlier 4 in the v1.3 run, where every check passed that it reached). A bound, not a wait.
 */
const AUDIT_TIMEOUT = 480_000;
const HEIGHT = 844;
const SCORING_TIMEOUT = 60_000;
/** The entry's name in the review queue, unique to this run. */
const SYSTEM_NAME = `Accessibility check retriever ${Date.now().toString(36)}`;

type Seeded = { participant: TestUser; token: string; maintainer: TestUser; testId: string; devId: string; entryId: string; otherId: string };
let seeded: Seeded | null = null;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  await waitForBaselines(120_000);
  const participant = await createTestUser({ label: "a11y participant" });
  const maintainer = await createTestUser({ label: "a11y maintainer", role: "MAINTAINER" });
  const { token } = await createTestApiToken(participant.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  // A file the v1.3 publication guard lets through (the bundled demo files are too close to a baseline).
  const testId = await uploadFile(api, "test-open.jsonl", await publishableTestFile("open"));
  const devId = await uploadDemoFile(api, "dev-open.jsonl");
  await waitScored(api, testId);
  await waitScored(api, devId);
  const requested = await api.post(`/api/submissions/${testId}/publication`, { data: publicationBody(SYSTEM_NAME) });
  expect(requested.status(), await requested.text()).toBe(202);
  await api.dispose();
  const entries = await getTestPool().query<{ id: string }>(
    `SELECT s."id" FROM "Submission" s JOIN "DatasetRelease" r ON r."id" = s."releaseId" AND r."isActive"
      WHERE s."split" = 'test' AND s."track" = 'closed' AND s."isBaseline" AND s."status" = 'SCORED' ORDER BY s."createdAt" LIMIT 2`,
  );
  const [entry, other] = entries.rows;
  if (!entry || !other) throw new Error("the accessibility check needs two closed-track baselines");
  seeded = { participant, token, maintainer, testId, devId, entryId: entry.id, otherId: other.id };
});

test.afterAll(async () => {
  if (seeded === null) return;
  await getTestPool().query(`DELETE FROM "Submission" WHERE "userId" = $1`, [seeded.participant.id]);
  await deleteTestUsers([seeded.participant.id, seeded.maintainer.id]);
});

function data(): Seeded {
  if (seeded === null) throw new Error("not seeded");
  return seeded;
}

const PUBLIC_PAGES = (entryId: string, otherId: string): string[] => [
  "/",
  "/dataset",
  "/dataset/releases",
  "/dataset/releases/1.0",
  "/leaderboard?track=open",
  "/leaderboard?track=closed",
  "/leaderboard?track=unified&types=show",
  "/leaderboard/types/person?track=open",
  "/leaderboard/matrix?track=open",
  "/leaderboard/progress?track=open",
  `/entries/${entryId}`,
  "/compare",
  `/compare?a=${entryId}&b=${otherId}`,
  "/docs/api",
];

/** Every serious or critical axe violation of one page, as lines that name the rule and the first elements. */
async function axeProblems(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => `${where}: ${violation.id} (${violation.impact}) ${violation.nodes.slice(0, 3).map((node) => node.target.join(" ")).join(" | ")}`);
}

async function auditAll(browser: Browser, baseURL: string, user: TestUser | null, paths: string[]): Promise<void> {
  const problems: string[] = [];
  for (const width of WIDTHS) {
    const context = await browser.newContext({ baseURL, viewport: { width, height: HEIGHT } });
    if (user) await signInContext(context, baseURL, user);
    const page = await context.newPage();
    try {
      for (const target of paths) {
        const response = await page.goto(target, { waitUntil: "networkidle" });
        expect(response?.status(), target).toBeLessThan(400);
        problems.push(...(await axeProblems(page, `${target} at ${width}`)));
      }
    } finally {
      await context.close();
    }
  }
  expect(problems, problems.join("\n")).toEqual([]);
}

test("[A11Y] axe finds no serious or critical violation on the public pages, for an anonymous reader at 390 and 1366", async ({ browser, baseURL }) => {
  test.setTimeout(AUDIT_TIMEOUT);
  const { entryId, otherId } = data();
  await auditAll(browser, baseURL ?? "", null, [...PUBLIC_PAGES(entryId, otherId), "/sign-in", "/sign-up"]);
});

test("[A11Y] axe finds no serious or critical violation on a participant's pages at 390 and 1366", async ({ browser, baseURL }) => {
  test.setTimeout(AUDIT_TIMEOUT);
  const { participant, testId, devId, entryId, otherId } = data();
  const own = ["/submissions", "/submit", `/submissions/${testId}`, `/submissions/${devId}`, `/submissions/${devId}/samples`, "/submissions/compare", "/runs", "/account", "/account/tokens"];
  await auditAll(browser, baseURL ?? "", participant, [...own, ...PUBLIC_PAGES(entryId, otherId)]);
});

test("[A11Y] axe finds no serious or critical violation on a maintainer's pages at 390 and 1366", async ({ browser, baseURL }) => {
  test.setTimeout(AUDIT_TIMEOUT);
  const { maintainer, testId, entryId, otherId } = data();
  const admin = ["/admin/review", "/admin/queue", "/admin/audit", "/admin/users", `/submissions/${testId}`];
  await auditAll(browser, baseURL ?? "", maintainer, [...admin, ...PUBLIC_PAGES(entryId, otherId)]);
});

for (const width of WIDTHS) {
  test(`[A11Y] an inline confirm takes focus, Escape gives it back, and the result takes it after the action, at ${width} px`, async ({ browser, baseURL, playwright }) => {
    const { participant, token, testId } = data();
    const context = await browser.newContext({ baseURL, viewport: { width, height: HEIGHT } });
    await signInContext(context, baseURL ?? "", participant);
    const page = await context.newPage();
    await page.goto(`/submissions/${testId}`);
    const withdraw = page.getByRole("button", { name: "Withdraw the publication request" });
    await withdraw.click();
    const confirm = page.getByRole("group", { name: "Confirm: Withdraw the publication request" });
    await expect(confirm.getByText("The request leaves the review queue")).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(confirm).toHaveCount(0);
    await expect(withdraw).toBeFocused();
    await withdraw.press("Enter");
    await expect(confirm.getByText("The request leaves the review queue")).toBeFocused();
    await page.keyboard.press("Tab");
    await expect(confirm.getByRole("button", { name: "Yes, withdraw it" })).toBeFocused();
    await page.keyboard.press("Enter");
    await expect(page.getByRole("status").filter({ hasText: "Request withdrawn" })).toBeFocused();
    // Ask again, for the next journey and the maintainer's review queue.
    const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
    const again = await api.post(`/api/submissions/${testId}/publication`, { data: publicationBody(SYSTEM_NAME) });
    expect(again.status(), await again.text()).toBe(202);
    await api.dispose();
    await context.close();
  });

  test(`[A11Y] Reject checks its reason before it asks, with focus on the field; Approve takes focus to its confirm and Escape gives it back, at ${width} px`, async ({ browser, baseURL }) => {
    const { maintainer } = data();
    const context = await browser.newContext({ baseURL, viewport: { width, height: HEIGHT } });
    await signInContext(context, baseURL ?? "", maintainer);
    const page = await context.newPage();
    await page.goto("/admin/review");
    const card = page.getByTestId("review-request").filter({ hasText: SYSTEM_NAME });
    await card.locator("summary").first().click();
    const reject = card.getByRole("button", { name: "Reject" });
    // Destructive actions look different from the rest: a red border, not the grey one.
    const [rejectBorder, rescoreBorder] = await Promise.all([
      reject.evaluate((element) => getComputedStyle(element).borderTopColor),
      card.getByRole("button", { name: "Re-score" }).evaluate((element) => getComputedStyle(element).borderTopColor),
    ]);
    expect(rejectBorder).not.toBe(rescoreBorder);
    await reject.click();
    await expect(card.getByRole("button", { name: "Yes, reject it" })).toHaveCount(0);
    await expect(card.getByRole("alert")).toContainText("Write the reason for the rejection");
    await expect(card.getByLabel("Reason (shown to the owner; required to reject)")).toBeFocused();
    const approve = card.getByRole("button", { name: "Approve" });
    await approve.click();
    await expect(card.getByRole("group", { name: "Confirm: Approve" }).getByText(/Publish ".+" on the public leaderboard now\?/)).toBeFocused();
    await page.keyboard.press("Escape");
    await expect(approve).toBeFocused();
    await context.close();
  });

  test(`[A11Y] a refused upload and a refused sign-in put focus on their error summary, at ${width} px`, async ({ browser, baseURL }) => {
    const { participant } = data();
    const context = await browser.newContext({ baseURL, viewport: { width, height: HEIGHT } });
    const page = await context.newPage();
    await page.goto("/sign-in");
    await page.getByLabel("Email").fill(participant.email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.getByTestId("form-error")).toBeFocused();
    await signInContext(context, baseURL ?? "", participant);
    await page.goto("/submit");
    await page.locator('input[type="file"]').setInputFiles({ name: "broken.jsonl", mimeType: "application/jsonl", buffer: Buffer.from('{"id": "irc-1", "predictions": 3}\nnot json\n') });
    const send = page.getByRole("button", { name: /upload|submit/i }).last();
    await send.click();
    await expect(page.getByTestId("upload-error")).toBeFocused({ timeout: 15_000 });
    await context.close();
  });
}

test("[A11Y] a submission's page announces its status change in a live region", async ({ browser, baseURL, playwright }) => {
  test.setTimeout(120_000);
  const { participant, token } = data();
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: HEIGHT } });
  await signInContext(context, baseURL ?? "", participant);
  const page = await context.newPage();
  await withScoringPaused(async () => {
    const id = await uploadDemoFile(api, "dev-open.jsonl");
    await page.goto(`/submissions/${id}`);
    await expect(page.getByTestId("submission-status")).toHaveText("queued");
  });
  const live = page.getByTestId("status-announcement");
  await expect(live).toHaveAttribute("aria-live", "polite");
  await expect(live).toHaveText(/Status changed: (scoring|scored)\./, { timeout: SCORING_TIMEOUT });
  await expect(live).toHaveText("Status changed: scored.", { timeout: SCORING_TIMEOUT });
  await api.dispose();
  await context.close();
});

test("[A11Y] the focus ring has at least 3:1 contrast against the page and the buttons it surrounds", async ({ page }) => {
  await page.goto("/leaderboard?track=open");
  await page.keyboard.press("Tab");
  const colors = await page.evaluate(() => {
    const element = document.activeElement as HTMLElement;
    return { ring: getComputedStyle(element).outlineColor, page: getComputedStyle(document.documentElement).backgroundColor };
  });
  const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const luminance = (channels: number[]) => {
    const [r = 0, g = 0, b = 0] = channels.map((value) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const ratio = (a: number[], b: number[]) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (light + 0.05) / (dark + 0.05);
  };
  expect(ratio(rgb(colors.ring), rgb(colors.page))).toBeGreaterThanOrEqual(3);
  expect(ratio(rgb(colors.ring), [255, 255, 255])).toBeGreaterThanOrEqual(3);
});
