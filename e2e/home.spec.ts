import { expect, test } from "./fixtures";

test("[HOME] the home page says what the platform is", async ({ page }) => {
  const response = await page.goto("/");
  expect(response?.status()).toBe(200);
  await expect(page.getByRole("heading", { level: 1 })).toContainText("IRC-Bench");
  await expect(page.getByRole("heading", { name: "Open-world track" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Closed-world track" })).toBeVisible();
  const csp = response?.headers()["content-security-policy"] ?? "";
  expect(csp).toContain("frame-ancestors 'none'");
});
