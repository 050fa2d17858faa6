import { execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { expect, test, waitForBaselines } from "./fixtures";

/**
 * One version a participant sees (issue 35): the scorer downloaded from /dataset prints a version, and the
 * site labels scores with that same version as "Scorer X", beside the platform scoring version under its own
 * name; the scorer's help uses the command a participant types.
 */

const WIDTHS = [
  { name: "phone", width: 390, height: 844 },
  { name: "laptop", width: 1366, height: 768 },
] as const;

test.beforeAll(async () => {
  await waitForBaselines(120_000);
});

for (const size of WIDTHS) {
  test(`[VERSIONS] the downloaded scorer's version is the site's "Scorer" label, and its help names its own command (${size.name})`, async ({ page, request }) => {
    await page.setViewportSize({ width: size.width, height: size.height });
    await page.goto("/dataset");
    const link = page.getByTestId("scorer-download").getByRole("link", { name: "irc-bench-score.mjs" });
    const href = await link.getAttribute("href");
    expect(href).not.toBeNull();
    const download = await request.get(href ?? "");
    expect(download.status()).toBe(200);

    const dir = await mkdtemp(path.join(os.tmpdir(), "scorer-"));
    try {
      const file = path.join(dir, "irc-bench-score.mjs");
      await writeFile(file, await download.body());
      const printed = execFileSync(process.execPath, [file, "--version"], { encoding: "utf8" }).trim();
      const help = execFileSync(process.execPath, [file, "--help"], { encoding: "utf8" });
      expect(printed).toMatch(/^irc-bench-score \d+\.\d+\.\d+$/);
      const version = printed.replace("irc-bench-score ", "");
      expect(help.startsWith("Usage: node irc-bench-score.mjs --release DIR")).toBe(true);
      expect(help).not.toContain("Usage: npm run");
      await expect(page.getByTestId("scorer-download")).toContainText(`Scorer ${version}`);

      // An entry page labels its score with the scorer's version, and the platform's under its own name.
      await page.goto("/leaderboard?track=closed");
      const entry = await page.locator("a[href^='/entries/']").first().getAttribute("href");
      await page.goto(entry ?? "/");
      const versions = page.getByTestId("score-versions");
      await expect(versions).toContainText(`Scorer ${version} (irc-bench-score)`);
      await expect(versions).toContainText(/platform scoring \d+\.\d+\.\d+/);
      const api = (await (await request.get(`/api${entry ?? ""}`)).json()) as { score: { scorer_version: string; platform_scoring_version: string } };
      expect(api.score.scorer_version).toBe(version);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
}
