import {
  createTestUser,
  deleteTestUsers,
  expect,
  expectSignedInAs,
  findUserRole,
  getTestPool,
  resetRateLimits,
  signInWithForm,
  test,
  uniqueEmail,
} from "./fixtures";

// Every run signs in from 127.0.0.1: start from clean rate-limit counters.
test.beforeAll(async () => {
  await resetRateLimits();
});

test("[AUTH] sign up lands signed in on the account page, with the next steps in focus; the new password signs in again", async ({ page }) => {
  const email = uniqueEmail("signup");
  const displayName = `Ada ${Date.now().toString(36)}`;
  const password = "a sufficiently long password";

  await page.goto("/");
  await page.getByRole("list", { name: "Account" }).getByRole("link", { name: "Sign up" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Create an account" })).toBeVisible();

  // a refused form keeps what was typed and says what is wrong, next to the field
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("short");
  await page.getByLabel("Display name").fill(displayName);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("main").getByRole("alert")).toContainText("Please correct the fields marked below.");
  await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Use at least 10 characters.")).toBeVisible();
  await expect(page.getByLabel("Email")).toHaveValue(email);

  await page.getByLabel("Password").fill(password);
  await page.getByLabel("Affiliation (optional)").fill("Oral History Lab");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/account\?welcome=1$/);
  const welcome = page.getByTestId("welcome");
  await expect(welcome).toBeFocused();
  await expect(welcome).toHaveAttribute("role", "status");
  await expect(welcome).toContainText(`Welcome, ${displayName}: your account is ready and you are signed in.`);
  await expect(welcome.getByRole("link", { name: "upload your predictions" })).toHaveAttribute("href", "/submit");
  await expectSignedInAs(page, displayName);
  const session = (await page.context().cookies()).find((cookie) => cookie.name === "next-auth.session-token");
  expect(session).toMatchObject({ httpOnly: true, sameSite: "Lax" });
  const nextAuthSession = await page.request.get("/api/auth/session");
  expect(await nextAuthSession.json()).toMatchObject({ user: { name: displayName, role: "PARTICIPANT", id: expect.any(String) } });

  // the session is next-auth's own: signing out and in again with the new password works as for any account
  await page.context().clearCookies();
  await signInWithForm(page, { email: email.toUpperCase(), password });
  await expectSignedInAs(page, displayName);

  await page.goto("/account");
  await expect(page.getByLabel("Display name")).toHaveValue(displayName);
  await expect(page.getByLabel("Affiliation")).toHaveValue("Oral History Lab");
  await expect(page.getByText(email)).toBeVisible();

  const { rows } = await getTestPool().query<{ id: string }>(`SELECT "id" FROM "User" WHERE "email" = $1`, [email]);
  await deleteTestUsers(rows.map((row) => row.id));
});

test("[AUTH] signing up with a taken email changes nothing and signs no one in", async ({ page, createUser }) => {
  const existing = await createUser({ label: "taken" });
  await page.goto("/sign-up");
  await page.getByLabel("Email").fill(existing.email);
  await page.getByLabel("Password").fill("the attacker's password");
  await page.getByLabel("Display name").fill("Someone Else");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page).toHaveURL(/\/sign-in\?registered=1$/);
  await expect(page.getByRole("main").getByRole("status")).toContainText("This email already has an account, which is unchanged");
  // the address just typed is filled in (never put in the URL), and the password field has the focus
  await expect(page.getByLabel("Email")).toHaveValue(existing.email);
  await expect(page.getByLabel("Password")).toBeFocused();
  expect((await page.context().cookies()).find((cookie) => cookie.name === "next-auth.session-token")).toBeUndefined();

  await signInWithForm(page, { email: existing.email, password: "the attacker's password" });
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Email or password is incorrect.");
  await signInWithForm(page, existing);
  await expectSignedInAs(page, existing.displayName);
});

test("[AUTH] a failed sign-in never says which part was wrong", async ({ page, createUser }) => {
  const ada = await createUser({ label: "ada" });
  await signInWithForm(page, { email: ada.email, password: "not the password" });
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Email or password is incorrect.");
  await signInWithForm(page, { email: uniqueEmail("nobody"), password: "not the password" });
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Email or password is incorrect.");
  await expect(page).toHaveURL(/\/sign-in/);
});

test("[AUTH] repeated sign-in attempts are rate limited", async ({ page, createUser }) => {
  const target = await createUser({ label: "target" });
  for (let attempt = 0; attempt < 5; attempt += 1) {
    await signInWithForm(page, { email: target.email, password: `guess number ${attempt}` });
    await expect(page.getByRole("main").getByRole("alert")).toHaveText("Email or password is incorrect.");
  }
  // the sixth attempt is refused even with the right password
  await signInWithForm(page, target);
  await expect(page.getByRole("main").getByRole("alert")).toHaveText("Too many attempts, try again in 15 minutes.");
  await resetRateLimits();
});

test("[AUTH] a protected page sends you to sign in and back", async ({ page, createUser }) => {
  const ada = await createUser({ label: "ada" });
  await page.goto("/account/tokens");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount%2Ftokens$/);
  await page.getByLabel("Email").fill(ada.email);
  await page.getByLabel("Password").fill(ada.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).toHaveURL(/\/account\/tokens$/);
  await expect(page.getByRole("heading", { level: 1, name: "API tokens" })).toBeVisible();
});

test("[AUTH] sign out", async ({ page, createUser, signInAs }) => {
  const ada = await createUser({ label: "ada" });
  await signInAs(ada);
  await page.goto("/account");
  await expectSignedInAs(page, ada.displayName);
  await page.getByRole("button", { name: "Sign out" }).click();
  await expect(page.getByRole("list", { name: "Account" }).getByRole("link", { name: "Sign in" })).toBeVisible();
  await page.goto("/account");
  await expect(page).toHaveURL(/\/sign-in\?callbackUrl=%2Faccount$/);
});

test("[AUTH] edit the profile", async ({ page, createUser, signInAs }) => {
  const ada = await createUser({ label: "ada" });
  await signInAs(ada);
  await page.goto("/account");
  await page.getByLabel("Display name").fill("X");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByText("Use at least 2 characters.")).toBeVisible();

  const newName = `Ada Lovelace ${Date.now().toString(36)}`;
  await page.getByLabel("Display name").fill(newName);
  await page.getByLabel("Affiliation").fill("Analytical Engines Ltd");
  await page.getByRole("button", { name: "Save profile" }).click();
  await expect(page.getByRole("main").getByRole("status")).toHaveText("Profile saved.");
  await expectSignedInAs(page, newName);
  await page.reload();
  await expect(page.getByLabel("Affiliation")).toHaveValue("Analytical Engines Ltd");
});

test("[AUTH] create an API token, use it, revoke it", async ({ page, request, createUser, signInAs }) => {
  const ada = await createUser({ label: "ada" });
  await signInAs(ada);
  await page.goto("/account/tokens");
  await expect(page.getByText("You have no API tokens yet.")).toBeVisible();

  await page.getByLabel("Token name").fill("lab workstation");
  await page.getByLabel("Expires after (days, optional)").fill("30");
  await page.getByRole("button", { name: "Create token" }).click();
  await expect(page.getByRole("main").getByRole("status").filter({ hasText: "will not be shown again" })).toBeVisible();
  const token = await page.getByLabel("Your new API token").inputValue();
  expect(token).toMatch(/^ircb_[A-Za-z0-9_-]{43}$/);

  const row = page.getByRole("row", { name: /lab workstation/ });
  await expect(row).toContainText(token.slice(0, 11));
  await expect(row).toContainText("Active");
  await expect(row).toContainText("Never"); // not used yet

  const me = await request.get("/api/me", { headers: { authorization: `Bearer ${token}` } });
  expect(me.status()).toBe(200);
  expect(await me.json()).toEqual({ id: ada.id, displayName: ada.displayName, affiliation: "", role: "PARTICIPANT", via: "token" });

  await page.reload();
  await expect(page.getByLabel("Your new API token")).toHaveCount(0); // shown once only
  await expect(page.getByRole("row", { name: /lab workstation/ })).not.toContainText("Never"); // used once now
  await page.getByRole("button", { name: "Revoke token lab workstation" }).click();
  await expect(page.getByRole("row", { name: /lab workstation/ })).toContainText("Revoked");

  const refused = await request.get("/api/me", { headers: { authorization: `Bearer ${token}` } });
  expect(refused.status()).toBe(401);
  expect(await refused.json()).toMatchObject({ error: { code: "unauthenticated", message: expect.stringContaining("revoked") } });
});

test("[AUTH] a maintainer promotes a participant", async ({ page, createUser, signInAs }) => {
  const maintainer = await createUser({ label: "maint", role: "MAINTAINER" });
  const grace = await createUser({ label: "grace" });
  await signInAs(maintainer);
  await page.goto("/");
  await page.getByRole("list", { name: "Account" }).getByRole("link", { name: "Users" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Users" })).toBeVisible();

  const row = page.getByRole("row", { name: new RegExp(grace.displayName) });
  await expect(row).toContainText(grace.email);
  await expect(row).toContainText("Participant");
  await row.getByLabel(`Reason for changing the role of ${grace.displayName}`).fill("co-organiser");
  await row.getByRole("button", { name: `Make maintainer: ${grace.displayName}` }).click();
  await expect(row.getByRole("status")).toHaveText("Now a maintainer.");
  expect(await findUserRole(grace.id)).toBe("MAINTAINER");

  const { rows } = await getTestPool().query<{ actorId: string; reason: string; details: unknown }>(
    `SELECT "actorId", "reason", "details" FROM "AuditLog" WHERE "targetId" = $1 AND "action" = 'user.role_changed'`,
    [grace.id],
  );
  expect(rows).toEqual([{ actorId: maintainer.id, reason: "co-organiser", details: { from: "PARTICIPANT", to: "MAINTAINER", via: "web" } }]);
  await page.reload();
  await expect(page.getByText(`${grace.displayName} participant → maintainer by ${maintainer.displayName} (co-organiser)`)).toBeVisible();
});

test("[AUTH] a participant cannot open the users page and the last maintainer cannot step down", async ({ page, createUser, signInAs }) => {
  const ada = await createUser({ label: "ada" });
  await signInAs(ada);
  const response = await page.goto("/admin/users");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("list", { name: "Account" }).getByRole("link", { name: "Users" })).toHaveCount(0);

  // Demote everyone else for a moment so this maintainer is the last one.
  const solo = await createTestUser({ label: "solo", role: "MAINTAINER" });
  const pool = getTestPool();
  const { rows } = await pool.query<{ id: string }>(
    `UPDATE "User" SET "role" = 'PARTICIPANT' WHERE "role" = 'MAINTAINER' AND "isSystem" = false AND "id" <> $1 RETURNING "id"`,
    [solo.id],
  );
  try {
    await page.context().clearCookies();
    await signInAs(solo);
    await page.goto("/admin/users");
    const row = page.getByRole("row", { name: new RegExp(solo.displayName) });
    await row.getByRole("button", { name: `Make participant: ${solo.displayName}` }).click();
    await expect(row.getByRole("alert")).toContainText("This is the last maintainer");
    expect(await findUserRole(solo.id)).toBe("MAINTAINER");
  } finally {
    await pool.query(`UPDATE "User" SET "role" = 'MAINTAINER' WHERE "id" = ANY($1::text[])`, [rows.map((row) => row.id)]);
    await deleteTestUsers([solo.id]);
  }
});
