/**
 * npm run screenshots [-- --base-url http://localhost:3000]
 *
 * Takes the README's screenshots of the main pages from a running platform
 * (npm run up) with Debian's Chromium, into docs/screenshots/: each page at
 * 1366 px (a laptop, NAME.png) and at 390 px (a phone, NAME-390.png).
 */
import path from "node:path";
import { parseCommandLine } from "../command-line";
import { chromium } from "@playwright/test";

const PAGES = [
  { name: "home", path: "/" },
  { name: "leaderboard-open", path: "/leaderboard?track=open" },
  { name: "leaderboard-closed", path: "/leaderboard?track=closed" },
  { name: "leaderboard-person", path: "/leaderboard/types/person" },
  { name: "dataset", path: "/dataset" },
] as const;

const VIEWPORTS = [
  { width: 1366, height: 900, suffix: "" },
  { width: 390, height: 844, suffix: "-390" },
] as const;

async function main(): Promise<void> {
  const { values } = parseCommandLine({
    name: "npm run screenshots",
    usage: "Usage: npm run screenshots [-- --base-url URL]\nTakes the README's screenshots of a running platform (default http://localhost:3000) into docs/screenshots/.",
    options: { "base-url": { type: "string", default: "http://localhost:3000" } },
  });
  const baseURL = values["base-url"];
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic", "--no-first-run"],
  });
  const page = await browser.newPage({ baseURL, viewport: { width: 1366, height: 900 } });
  const shots: { name: string; path: string }[] = [...PAGES];
  await page.goto("/leaderboard?track=closed");
  const entryHref = await page.locator('a[href^="/entries/"]').first().getAttribute("href");
  if (entryHref) shots.push({ name: "entry", path: entryHref });
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const shot of shots) {
      await page.goto(shot.path, { waitUntil: "networkidle" });
      // The top of each page, as a reader first sees it: leaderboard views open on their table.
      const file = path.join("docs", "screenshots", `${shot.name}${viewport.suffix}.png`);
      await page.screenshot({ path: file, fullPage: false });
      console.log(`${file} <- ${shot.path} at ${viewport.width} px`);
    }
  }
  await browser.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
