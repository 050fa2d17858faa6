import { deleteTestUsers, expect, getTestPool, rateLimitCount, resetRateLimits, test, uniqueEmail } from "./fixtures";

/**
 * Protocol §12: quotas and rate limits bind the client address as the
 * platform sees it. The web server runs here without TRUSTED_PROXY_HOPS (0):
 * the address is the socket's, and an X-Forwarded-For a client makes up is
 * ignored. This goes through the real `next start` and the real sign-up
 * server action, which is where a forged header would have to work.
 */
const SIGN_UPS_PER_ADDRESS = 10; // AUTH_RATE_LIMITS.signUpPerIp.limit

test.afterEach(async () => {
  await resetRateLimits();
});

test("[AUTH] a spoofed X-Forwarded-For does not reset the sign-up limit", async ({ page }) => {
  await resetRateLimits();
  const emails: string[] = [];
  try {
    for (let attempt = 0; attempt <= SIGN_UPS_PER_ADDRESS; attempt += 1) {
      // a new made-up address for every attempt, as a script would send
      await page.setExtraHTTPHeaders({ "X-Forwarded-For": `203.0.113.${attempt + 1}` });
      // each sign-up lands signed in: sign out before the next, as a script starting afresh would
      await page.context().clearCookies();
      const email = uniqueEmail(`spoof-${attempt}`);
      emails.push(email);
      await page.goto("/sign-up");
      await page.getByLabel("Email").fill(email);
      await page.getByLabel("Password").fill("long enough password");
      await page.getByLabel("Display name").fill(`Spoof ${attempt}`);
      await page.getByRole("button", { name: "Create account" }).click();
      if (attempt < SIGN_UPS_PER_ADDRESS) {
        await expect(page).toHaveURL(/\/account\?welcome=1$/);
      } else {
        await expect(page.getByRole("main").getByRole("alert")).toHaveText("Too many attempts, try again in 60 minutes.");
        await expect(page).toHaveURL(/\/sign-up$/);
      }
    }
    const { rows } = await getTestPool().query<{ email: string }>(`SELECT "email" FROM "User" WHERE "email" = ANY($1)`, [emails]);
    expect(rows).toHaveLength(SIGN_UPS_PER_ADDRESS);
    expect(rows.map((row) => row.email)).not.toContain(emails.at(-1));
    // every attempt was counted against the socket's address, none against a made-up one or "unknown"
    expect(await rateLimitCount("sign-up:ip", "127.0.0.1")).toBe(SIGN_UPS_PER_ADDRESS + 1);
    expect(await rateLimitCount("sign-up:ip", "203.0.113.1")).toBe(0);
    expect(await rateLimitCount("sign-up:ip", "unknown")).toBe(0);
  } finally {
    const { rows } = await getTestPool().query<{ id: string }>(`SELECT "id" FROM "User" WHERE "email" = ANY($1)`, [emails]);
    await deleteTestUsers(rows.map((row) => row.id));
  }
});
