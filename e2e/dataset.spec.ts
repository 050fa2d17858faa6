import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Locator } from "@playwright/test";
import { expect, getTestPool, test } from "./fixtures";

/**
 * The dataset card (protocol section 3) of the demo release that
 * scripts/ci/e2e-prepare.ts imports: the task with an example pair, sizes per
 * split, type and collection, a chart, formats, scoring rules, checksums,
 * how to cite, and downloads whose bytes match the checksums shown.
 */

const DEMO_RELEASE = path.join(__dirname, "..", "data", "demo-release");
const TYPES = ["Place", "Organization", "Person", "Event", "Work", "Military Unit", "Other"];
const SPLITS = ["train", "dev", "test"] as const;
const DOWNLOADS = ["train.jsonl", "dev.jsonl", "test.jsonl", "kb.jsonl"];

type DemoEntity = { qid: string; name: string; type: string };
type DemoSample = { id: string; qid: string; collection: string; implicit_text: string; explicit_text: string };
type Demo = { entities: DemoEntity[]; samples: Record<(typeof SPLITS)[number], DemoSample[]> };

async function readJsonl<T>(file: string): Promise<T[]> {
  const text = await readFile(path.join(DEMO_RELEASE, file), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as T);
}

async function readDemo(): Promise<Demo> {
  return {
    entities: await readJsonl<DemoEntity>("kb.jsonl"),
    samples: {
      train: await readJsonl<DemoSample>("train.jsonl"),
      dev: await readJsonl<DemoSample>("dev.jsonl"),
      test: await readJsonl<DemoSample>("test.jsonl"),
    },
  };
}

const count = (value: number) => value.toLocaleString("en");

/** The cells of every body row of a table, header cell first. */
async function bodyRows(table: Locator): Promise<string[][]> {
  const rows = table.locator("tbody tr");
  const result: string[][] = [];
  for (let index = 0; index < (await rows.count()); index += 1) {
    const cells = await rows.nth(index).locator("th, td").allInnerTexts();
    result.push(cells.map((cell) => cell.trim()));
  }
  return result;
}

async function storedChecksums(): Promise<Record<string, string>> {
  const result = await getTestPool().query<{ downloads: Record<string, { sha256: string }> }>(
    `SELECT downloads FROM "DatasetRelease" WHERE "isActive"`,
  );
  const downloads = result.rows[0]?.downloads ?? {};
  return Object.fromEntries(Object.entries(downloads).map(([name, digest]) => [name, digest.sha256]));
}

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");

test("[DATASET] the dataset card explains the task with one example pair from the training split", async ({ page }) => {
  const demo = await readDemo();
  const example = demo.samples.train[0];
  const entity = demo.entities.find((candidate) => candidate.qid === example?.qid);
  if (!example || !entity) throw new Error("the demo release has no training sample");
  await page.goto("/dataset");
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Dataset: irc-bench-demo 1.0");
  await expect(page.getByRole("heading", { name: "The task" })).toBeVisible();
  const elided = page.getByRole("figure", { name: "Entity-elided narrative (what systems see)" });
  await expect(elided).toContainText(example.implicit_text);
  const grounded = page.getByRole("figure", { name: "Entity-grounded narrative" });
  await expect(grounded).toContainText(example.explicit_text);
  await expect(grounded).toContainText(`Gold: ${entity.name} (${entity.qid}) · ${entity.type} · ${example.collection} · training sample ${example.id}`);
  // Exactly one pair, and the example is never a test sample.
  await expect(page.getByRole("figure", { name: "Entity-elided narrative (what systems see)" })).toHaveCount(1);
  for (const sample of demo.samples.test) await expect(page.locator("body")).not.toContainText(sample.id);
});

test("[DATASET] sizes per split, per entity type and per collection, in tables and a chart", async ({ page }) => {
  const demo = await readDemo();
  const typeOf = new Map(demo.entities.map((entity) => [entity.qid, entity.type]));
  await page.goto("/dataset");
  await expect(page.getByRole("heading", { name: "Sizes" })).toBeVisible();

  const splitTable = page.getByRole("table", { name: "Samples and entities per split" });
  expect(await bodyRows(splitTable)).toEqual(
    SPLITS.map((split) => [split, count(demo.samples[split].length), count(new Set(demo.samples[split].map((sample) => sample.qid)).size)]),
  );
  expect(await bodyRows(splitTable)).toEqual([
    ["train", "172", "86"],
    ["dev", "27", "13"],
    ["test", "56", "25"],
  ]);

  const typeTable = page.getByRole("table", { name: "Samples per entity type and split" });
  expect(await bodyRows(typeTable)).toEqual(
    TYPES.map((type) => [
      type,
      ...SPLITS.map((split) => count(demo.samples[split].filter((sample) => typeOf.get(sample.qid) === type).length)),
      count(demo.entities.filter((entity) => entity.type === type).length),
    ]),
  );

  const collections = [...new Set(SPLITS.flatMap((split) => demo.samples[split].map((sample) => sample.collection)))].sort((a, b) => a.localeCompare(b));
  expect(collections).toHaveLength(11);
  const collectionTable = page.getByRole("table", { name: "Samples per collection and split" });
  expect(await bodyRows(collectionTable)).toEqual(
    collections.map((collection) => [collection, ...SPLITS.map((split) => count(demo.samples[split].filter((sample) => sample.collection === collection).length))]),
  );

  const chart = page.getByRole("group", { name: "Samples per entity type, stacked by split" });
  await expect(chart).toBeVisible();
  await expect(chart.locator("svg.recharts-surface").first()).toBeVisible();
  for (const type of TYPES) await expect(chart.getByText(type, { exact: true })).toBeAttached();
});

test("[DATASET] formats, scoring rules, a 64-hex SHA-256 per download, and how to cite", async ({ page, request }) => {
  await page.goto("/dataset");

  await expect(page.getByRole("heading", { name: "Prediction formats" })).toBeVisible();
  const formats = page.locator("section", { has: page.getByRole("heading", { name: "Prediction formats" }) });
  await expect(formats).toContainText('"prediction": "Attack on Pearl Harbor"');
  await expect(formats).toContainText('"ranking": [');
  await expect(formats).toContainText("1 to 100 distinct QIDs");
  await expect(formats).toContainText("at most 512 characters");

  const scoring = page.locator("section", { has: page.getByRole("heading", { name: "Scoring rules" }) });
  for (const rule of ["Exact", "Alias", "Containment", "Jaccard"]) await expect(scoring.getByRole("listitem").filter({ hasText: rule })).toHaveCount(1);
  for (const phrase of ["NFKC", "Hit@1", "MRR", "95% percentile-bootstrap interval", "McNemar", "Holm"]) await expect(scoring).toContainText(phrase);

  const checksums = page.getByRole("table", { name: "Files and their SHA-256 checksums" });
  const stored = await storedChecksums();
  const rows = await bodyRows(checksums);
  expect(rows.map((row) => row[0])).toEqual(DOWNLOADS);
  for (const row of rows) {
    const [name = "", , , checksum = ""] = row;
    expect(checksum, name).toMatch(/^[0-9a-f]{64}$/);
    expect(checksum, name).toBe(stored[name]);
    const served = await request.get(`/dataset/download/${name}`);
    expect(served.status(), name).toBe(200);
    expect(sha256(await served.body()), name).toBe(checksum);
  }

  const cite = page.locator("section", { has: page.getByRole("heading", { name: "How to cite" }) });
  await expect(cite).toContainText("@misc{ircbench");
  await expect(cite).toContainText("IRC-Bench: Recognizing Entities from Contextual Cues in First-Person Reminiscences");
  await expect(cite).toContainText("release irc-bench-demo 1.0");
});

test("[DATASET] each download link saves a file whose SHA-256 is the checksum shown beside it", async ({ page }) => {
  await page.goto("/dataset");
  const checksums = page.getByRole("table", { name: "Files and their SHA-256 checksums" });
  for (const name of DOWNLOADS) {
    const row = checksums.getByRole("row").filter({ has: page.getByRole("link", { name, exact: true }) });
    const shown = (await row.locator("code").innerText()).trim();
    expect(shown, name).toMatch(/^[0-9a-f]{64}$/);
    const [download] = await Promise.all([page.waitForEvent("download"), row.getByRole("link", { name, exact: true }).click()]);
    expect(download.suggestedFilename()).toBe(`irc-bench-demo-1.0-${name}`);
    const saved = await download.path();
    const bytes = await readFile(saved);
    expect(sha256(bytes), name).toBe(shown);
    expect(bytes.toString("utf8").endsWith("\n"), name).toBe(true);
  }
});

test("[DATASET] downloads are gzip-compressed for clients that accept it and decompress to the checksummed bytes", async ({ playwright, baseURL }) => {
  const api = await playwright.request.newContext({ baseURL, extraHTTPHeaders: { "accept-encoding": "gzip" } });
  for (const name of ["train.jsonl", "test.jsonl", "kb.jsonl"]) {
    const response = await api.get(`/dataset/download/${name}`);
    expect(response.status()).toBe(200);
    expect(response.headers()["content-encoding"]).toBe("gzip");
    // Playwright decompresses the body, as a browser would.
    expect(sha256(await response.body())).toBe(response.headers()["x-content-sha256"]);
  }
  await api.dispose();
});

test("[DATASET] a participant downloads the scorer and the dev data and scores dev predictions with plain node", async ({ page }) => {
  await page.goto("/dataset");
  const row = page.getByTestId("scorer-download");
  const shown = (await row.locator("code").innerText()).trim();
  expect(shown).toMatch(/^[0-9a-f]{64}$/);
  const folder = await mkdtemp(path.join(os.tmpdir(), "irc-participant-"));
  try {
    const [scorer] = await Promise.all([page.waitForEvent("download"), row.getByRole("link").click()]);
    const scorerPath = path.join(folder, scorer.suggestedFilename());
    await scorer.saveAs(scorerPath);
    expect(sha256(await readFile(scorerPath))).toBe(shown);
    // The data files keep the site's names (irc-bench-demo-1.0-dev.jsonl, ...-kb.jsonl); the scorer finds them.
    const checksums = page.getByRole("table", { name: "Files and their SHA-256 checksums" });
    for (const name of ["dev.jsonl", "kb.jsonl"]) {
      const [download] = await Promise.all([page.waitForEvent("download"), checksums.getByRole("link", { name, exact: true }).click()]);
      await download.saveAs(path.join(folder, download.suggestedFilename()));
    }
    const predictions = path.join(folder, "preds.jsonl");
    await copyFile(path.join(__dirname, "..", "data", "demo-predictions", "dev-open.jsonl"), predictions);
    // No node_modules anywhere near: the file is self-contained.
    const output = execFileSync(process.execPath, [scorerPath, "--release", folder, "--split", "dev", "--predictions", predictions, "--json"], { cwd: folder, encoding: "utf8" });
    const report = JSON.parse(output) as { split: string; track: string; n: number; metrics: { alias: number } };
    expect(report).toMatchObject({ split: "dev", track: "open", n: 27 });
    // The same 55.6 the site shows for this file (submissions spec): 15 of 27.
    expect(report.metrics.alias).toBe(15 / 27);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
});
