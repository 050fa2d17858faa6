import { spawn, execFile, type ChildProcess } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { freePort } from "@/testing/free-port";
import { checkTextDigits, pageText } from "@/testing/disclosure-digits";
import { expect, test } from "./fixtures";

/**
 * The mirror (npm run mirror:export, docs/public-log.md): the demo's public record
 * exported from the running site, served by `python3 -m http.server` with no
 * IRC-Bench server behind it, shows every leaderboard view and entry page as
 * plain HTML with the numbers /api/leaderboard gives, its manifest verifies
 * (every file's SHA-256, the log head that of the log it holds), and nothing in
 * it has more digits than protocol section 12 allows or names a test sample.
 */

const REPO_ROOT = path.join(__dirname, "..");
const TRACKS = ["open", "closed", "unified"] as const;

type LiveView = { rank_metric: string; entries: { system: string; metrics: Record<string, { value: number } | null> }[] };
type Manifest = { logHead: { seq: number; hash: string; signature: string }; files: { path: string; sha256: string; bytes: number }[] };

let out = "";
let mirror: ChildProcess;
let mirrorUrl: string;

test.beforeAll(async ({ baseURL }) => {
  test.setTimeout(300_000);
  // The demo's baselines are scored by the worker Playwright starts: export once both tracks show them and the log is quiet.
  for (const track of ["open", "closed"]) {
    await expect
      .poll(async () => ((await (await fetch(`${baseURL}/api/leaderboard?track=${track}&scope=all`)).json()) as { entries?: unknown[] }).entries?.length ?? 0, { timeout: 240_000 })
      .toBeGreaterThan(0);
  }
  let head = "";
  await expect
    .poll(
      async () => {
        const next = await (await fetch(`${baseURL}/api/public-log/head`)).text();
        const isQuiet = next === head;
        head = next;
        return isQuiet;
      },
      { timeout: 120_000, intervals: [3000] },
    )
    .toBe(true);
  out = await mkdtemp(path.join(os.tmpdir(), "irc-mirror-"));
  await promisify(execFile)(process.execPath, [path.join(REPO_ROOT, "scripts", "ops", "mirror-export.mjs"), "--out", out, "--url", baseURL ?? ""], { cwd: REPO_ROOT, maxBuffer: 1 << 24 });
  const port = await freePort();
  mirror = spawn("python3", ["-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", out], { stdio: "ignore" });
  mirrorUrl = `http://127.0.0.1:${port}`;
  await expect.poll(async () => (await fetch(`${mirrorUrl}/manifest.json`).catch(() => null))?.status ?? 0, { timeout: 15_000 }).toBe(200);
});

test.afterAll(async () => {
  mirror?.kill("SIGTERM");
  if (out !== "") await rm(out, { recursive: true, force: true });
});

test("[MIRROR] the static mirror's manifest lists every file with its SHA-256 and the signed log head of the log it holds", async () => {
  const manifest = (await (await fetch(`${mirrorUrl}/manifest.json`)).json()) as Manifest;
  expect(manifest.files.length).toBeGreaterThan(50);
  for (const file of manifest.files) {
    const bytes = Buffer.from(await readFile(path.join(out, file.path)));
    expect(createHash("sha256").update(bytes).digest("hex"), file.path).toBe(file.sha256);
  }
  const log = (await readFile(path.join(out, "api", "public-log.jsonl"), "utf8")).trim().split("\n");
  const last = JSON.parse(log.at(-1) ?? "{}") as { seq: number; hash: string };
  expect(manifest.logHead).toMatchObject({ seq: last.seq, hash: last.hash });
  expect(manifest.logHead.signature).toMatch(/^[A-Za-z0-9+/]+=*$/);
});

test("[MIRROR] served statically, every leaderboard view shows the live /api/leaderboard's systems and numbers", async ({ baseURL, browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  for (const track of TRACKS) {
    const live = (await (await fetch(`${baseURL}/api/leaderboard?track=${track}&scope=all&limit=1000`)).json()) as LiveView;
    const mirrored = await readFile(path.join(out, "api", "leaderboard", `${track}-all.json`), "utf8");
    expect(JSON.parse(mirrored)).toEqual(live);
    // The page as a reader of the mirror gets it, with no script run: each system with the value /api/leaderboard gives.
    await page.goto(`${mirrorUrl}/leaderboard/~scope=all&track=${track}/`);
    const text = (await page.locator("main").innerText()).replace(/\s+/g, " ");
    expect(live.entries.length).toBeGreaterThan(0);
    for (const row of live.entries) {
      const value = row.metrics[live.rank_metric]?.value;
      expect(text, `${track}: ${row.system}`).toContain(row.system);
      if (value !== undefined && value !== null) expect(text, `${track}: ${row.system} ${value}`).toContain(live.rank_metric === "mrr" ? value.toFixed(3) : (value * 100).toFixed(1));
    }
  }
  await context.close();
});

test("[MIRROR] entry pages are mirrored with their history link, readable without JavaScript, and nothing has more digits than section 12 allows", async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  const entries = JSON.parse(await readFile(path.join(out, "api", "entries.json"), "utf8")) as { entries: { id: string; system: string; split: string }[] };
  expect(entries.entries.length).toBeGreaterThan(0);
  for (const entry of entries.entries.slice(0, 5)) {
    await page.goto(`${mirrorUrl}/entries/${entry.id}/`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(entry.system);
    await page.getByTestId("entry-history-link").click();
    await expect(page).toHaveURL(new RegExp(`^${mirrorUrl}/changes/~entry(=|%3D)${entry.id}/$`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Changes");
  }
  await context.close();
  const problems: string[] = [];
  const manifest = JSON.parse(await readFile(path.join(out, "manifest.json"), "utf8")) as Manifest;
  const testIds = new Set((await readFile(path.join(REPO_ROOT, "data", "demo-release", "test.jsonl"), "utf8")).split("\n").filter(Boolean).map((line) => (JSON.parse(line) as { id: string }).id));
  // Dev baselines are shown at full precision: the dev gold is public (protocol section 12).
  const devEntries = entries.entries.filter((entry) => entry.split === "dev").map((entry) => entry.id);
  const isDevEntryFile = (file: string) => devEntries.some((id) => file.includes(id));
  for (const file of manifest.files.filter((item) => /\.(html|jsonl|csv)$/.test(item.path) && !item.path.startsWith("dataset/download/") && !isDevEntryFile(item.path))) {
    const body = await readFile(path.join(out, file.path), "utf8");
    checkTextDigits(file.path, file.path.endsWith(".html") ? pageText(body) : body, problems, true);
    const named = (body.match(/[A-Za-z][\w-]*-\d+/g) ?? []).filter((token) => testIds.has(token));
    if (named.length > 0) problems.push(`${file.path}: names test samples ${named.slice(0, 3).join(", ")}`);
  }
  expect(problems).toEqual([]);
});
