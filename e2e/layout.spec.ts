import path from "node:path";
import { readFile } from "node:fs/promises";
import type { APIRequestContext, Browser, Page } from "@playwright/test";
import { apiContextFor, createTestApiToken, createTestUser, deleteTestUsers, expect, getTestPool, runScript, signInContext, test, waitForBaselines, type TestUser } from "./fixtures";
import { requireLocalUrl } from "../testing/local-database";
import { publicationBody } from "./fixtures/publication";
import { publishableTestFile } from "./fixtures/scored-upload";

/**
 * The layout check: every page at 390, 768, 1366 and 1920 px wide, as an
 * anonymous reader, a participant and a maintainer. A page fails when its
 * document is wider than the viewport, when the text of a button or link has
 * a contrast below 4.5:1 against what is behind it (computed from the
 * computed styles, transparent backgrounds resolved up the tree), or, on a
 * leaderboard view, when the primary metric is outside the viewport. One
 * browser context per role; each page is loaded once and resized.
 */

const VIEWPORTS = [390, 768, 1366, 1920] as const;
const HEIGHT = 900;
const MIN_CONTRAST = 4.5;
const PREDICTIONS = path.join(__dirname, "..", "data", "demo-predictions");
const SCORING_TIMEOUT = 60_000;

type Role = "anonymous" | "participant" | "maintainer";
type PageCheck = { path: string; isLeaderboard?: boolean };

type LowContrast = { text: string; ratio: number; color: string; background: string; tag: string };
type Measured = { overflow: number; culprits: string[]; lowContrast: LowContrast[] };

/**
 * Runs in the page: horizontal overflow of the document, and the contrast of
 * the text inside every visible link and button (WCAG relative luminance).
 * A background with alpha is composited over its ancestors' until opaque;
 * the page's root falls back to white.
 */
function measurePage(minContrast: number): Measured {
  type Rgba = [number, number, number, number];
  // Computed colours come in any CSS syntax (Tailwind 4 writes lab() and oklch()): a 1x1 canvas turns each into sRGB bytes.
  const canvas = document.createElement("canvas");
  canvas.width = 1;
  canvas.height = 1;
  const context = canvas.getContext("2d", { willReadFrequently: true });
  const parsed = new Map<string, Rgba>();
  const parse = (value: string): Rgba => {
    const known = parsed.get(value);
    if (known) return known;
    if (context === null) throw new Error("no 2d canvas");
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = "rgba(0, 0, 0, 0)";
    context.fillStyle = value;
    context.fillRect(0, 0, 1, 1);
    const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data;
    const rgba: Rgba = [r, g, b, a / 255];
    parsed.set(value, rgba);
    return rgba;
  };
  const over = (top: Rgba, bottom: Rgba): Rgba => {
    const alpha = top[3] + bottom[3] * (1 - top[3]);
    if (alpha === 0) return [0, 0, 0, 0];
    const mix = (index: 0 | 1 | 2) => (top[index] * top[3] + bottom[index] * bottom[3] * (1 - top[3])) / alpha;
    return [mix(0), mix(1), mix(2), alpha];
  };
  const backgroundBehind = (element: Element): Rgba => {
    const layers: Rgba[] = [];
    for (let node: Element | null = element; node !== null; node = node.parentElement) {
      const layer = parse(getComputedStyle(node).backgroundColor);
      if (layer[3] > 0) layers.push(layer);
      if (layer[3] >= 1) break;
    }
    let color: Rgba = [255, 255, 255, 1];
    for (const layer of layers.reverse()) color = over(layer, color);
    return color;
  };
  const luminance = ([r, g, b]: Rgba): number => {
    const channel = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
  };
  const ratio = (a: Rgba, b: Rgba) => {
    const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
    return (light + 0.05) / (dark + 0.05);
  };

  const lowContrast: LowContrast[] = [];
  const controls = document.querySelectorAll<HTMLElement>("a[href], button, summary, [role='button']");
  for (const control of controls) {
    if (control instanceof HTMLButtonElement && control.disabled) continue;
    if (!control.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const box = control.getBoundingClientRect();
    if (box.width <= 1 || box.height <= 1) continue;
    const walker = document.createTreeWalker(control, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = node.textContent?.trim() ?? "";
      const holder = node.parentElement;
      if (text === "" || holder === null || !holder.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
      const holderBox = holder.getBoundingClientRect();
      if (holderBox.width <= 1 || holderBox.height <= 1) continue;
      const background = backgroundBehind(holder);
      const color = over(parse(getComputedStyle(holder).color), background);
      const contrast = ratio(color, background);
      if (contrast < minContrast) {
        const rgb = (value: Rgba) => `rgb(${value.slice(0, 3).map(Math.round).join(", ")})`;
        lowContrast.push({ text: text.slice(0, 40), ratio: Math.round(contrast * 100) / 100, color: rgb(color), background: rgb(background), tag: control.tagName.toLowerCase() });
      }
    }
  }
  const root = document.documentElement;
  const overflow = root.scrollWidth - root.clientWidth;
  // The outermost elements that stick out on the right, to say what to fix.
  const culprits: string[] = [];
  if (overflow > 1) {
    for (const element of document.body.querySelectorAll<HTMLElement>("*")) {
      const parent = element.parentElement;
      if (parent === null || element.getBoundingClientRect().right <= root.clientWidth + 1) continue;
      if (parent !== document.body && parent.getBoundingClientRect().right > root.clientWidth + 1) continue;
      culprits.push(`${element.tagName.toLowerCase()}.${String(element.className).split(" ").slice(0, 4).join(".")}`);
      if (culprits.length >= 3) break;
    }
  }
  return { overflow, culprits, lowContrast };
}

/** Runs in the page: where the primary metric is, as a card (narrow) or a table column (wide). */
function primaryMetricBox(): { left: number; right: number; viewport: number; regionRight: number | null; isCard: boolean } | null {
  const viewport = document.documentElement.clientWidth;
  const card = document.querySelector<HTMLElement>("[data-testid='card-primary-metric']");
  if (card?.checkVisibility()) {
    const box = card.getBoundingClientRect();
    return { left: box.left, right: box.right, viewport, regionRight: null, isCard: true };
  }
  const header = document.querySelector<HTMLElement>("th[data-primary-metric]");
  if (!header?.checkVisibility()) return null;
  const box = header.getBoundingClientRect();
  const region = header.closest("[role='region']")?.getBoundingClientRect();
  return { left: box.left, right: box.right, viewport, regionRight: region?.right ?? null, isCard: false };
}

/** Runs in the page: whether the leaderboard table is as wide as its region or less, so nothing of it needs sideways scrolling. */
function tableFitsRegion(): { tableWidth: number; regionWidth: number } | null {
  const region = document.querySelector<HTMLElement>("[role='region'] table")?.closest<HTMLElement>("[role='region']");
  const table = region?.querySelector("table");
  if (!region || !table) return null;
  return { tableWidth: table.scrollWidth, regionWidth: region.clientWidth };
}

async function checkPage(page: Page, role: Role, check: PageCheck, problems: string[]): Promise<void> {
  const response = await page.goto(check.path);
  expect(response?.status(), `${role} ${check.path}`).toBeLessThan(400);
  await page.waitForLoadState("networkidle");
  for (const width of VIEWPORTS) {
    await page.setViewportSize({ width, height: HEIGHT });
    // One frame for the layout to follow the new width.
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => resolve(null))));
    const where = `${role} ${check.path} @${width}px`;
    const measured = await page.evaluate(measurePage, MIN_CONTRAST);
    if (measured.overflow > 1) problems.push(`${where}: the document is ${measured.overflow}px wider than the viewport (${measured.culprits.join(", ")})`);
    // One line per distinct problem of a page and width (a table repeats the same header style many times).
    const lines = new Set(measured.lowContrast.map((item) => `${where}: ${item.tag} "${item.text}" has contrast ${item.ratio}:1 (${item.color} on ${item.background})`));
    problems.push(...lines);
    if (!check.isLeaderboard) continue;
    const box = await page.evaluate(primaryMetricBox);
    if (box === null) {
      problems.push(`${where}: no primary metric is shown`);
      continue;
    }
    const right = Math.min(box.viewport, box.regionRight ?? box.viewport);
    if (box.left < 0 || box.right > right + 1) problems.push(`${where}: the primary metric is outside the viewport (${Math.round(box.left)}–${Math.round(box.right)} of ${Math.round(right)})`);
    if (width < 768 && !box.isCard) problems.push(`${where}: expected the card layout below 768px`);
    if (width >= 1366) {
      const fit = await page.evaluate(tableFitsRegion);
      if (fit && fit.tableWidth > fit.regionWidth + 1) problems.push(`${where}: the table is ${fit.tableWidth}px in a ${fit.regionWidth}px region (columns hidden by scrolling)`);
    }
  }
}

const PUBLIC_PAGES = (entryId: string, otherId: string): PageCheck[] => [
  { path: "/" },
  { path: "/dataset" },
  { path: "/leaderboard", isLeaderboard: true },
  { path: "/leaderboard?track=closed", isLeaderboard: true },
  { path: "/leaderboard?track=unified", isLeaderboard: true },
  { path: "/leaderboard?track=open&scope=all", isLeaderboard: true },
  { path: "/leaderboard/types/person?track=open", isLeaderboard: true },
  { path: "/leaderboard/matrix?track=open" },
  { path: "/leaderboard/progress?track=open" },
  { path: "/dataset/releases" },
  { path: "/dataset/releases/1.0" },
  { path: `/entries/${entryId}` },
  { path: "/compare" },
  { path: `/compare?a=${entryId}&b=${otherId}` },
  { path: "/docs/api" },
];

type Seeded = { participant: TestUser; maintainer: TestUser; submissionId: string; devSubmissionId: string; entryId: string; otherId: string };

async function uploadWithToken(api: APIRequestContext, file: string, bytes?: Buffer): Promise<string> {
  const buffer = bytes ?? (await readFile(path.join(PREDICTIONS, file)));
  const created = await api.post("/api/submissions", { multipart: { file: { name: file, mimeType: "application/jsonl", buffer } } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await api.get(`/api/submissions/${id}`)).json()) as { status: string }).status, { timeout: SCORING_TIMEOUT })
    .toBe("SCORED");
  return id;
}

let seeded: Seeded | null = null;

test.describe.configure({ mode: "serial" });

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  await waitForBaselines(120_000);
  runScript("scripts/dev/seed-leaderboard.ts", ["--database-url", requireLocalUrl("DATABASE_URL"), "--reset", "--no-baselines", "--entries", "14", "--resamples", "200", "--json"]);
  const participant = await createTestUser({ label: "layout participant" });
  const maintainer = await createTestUser({ label: "layout maintainer", role: "MAINTAINER" });
  const { token } = await createTestApiToken(participant.id);
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "token", token });
  // A file the v1.3 publication guard lets through (the bundled demo files are too close to a baseline).
  const submissionId = await uploadWithToken(api, "test-open.jsonl", await publishableTestFile("open"));
  const devSubmissionId = await uploadWithToken(api, "dev-open.jsonl");
  const requested = await api.post(`/api/submissions/${submissionId}/publication`, {
    data: publicationBody("Layout check retriever with a rather long system name", { methodDescription: "BM25 over entity names, then a reranker; used by the layout check." }),
  });
  expect(requested.status(), await requested.text()).toBe(202);
  await api.dispose();
  const entries = await getTestPool().query<{ id: string }>(
    `SELECT s."id" FROM "Submission" s JOIN "DatasetRelease" r ON r."id" = s."releaseId" AND r."isActive"
      WHERE s."split" = 'test' AND s."track" = 'open' AND (s."publication" = 'PUBLISHED' OR s."isBaseline") AND s."status" = 'SCORED'
      ORDER BY s."createdAt" LIMIT 2`,
  );
  const [entry, other] = entries.rows;
  if (!entry || !other) throw new Error("the layout check needs two public open-track test entries");
  seeded = { participant, maintainer, submissionId, devSubmissionId, entryId: entry.id, otherId: other.id };
});

test.afterAll(async () => {
  runScript("scripts/dev/seed-leaderboard.ts", ["--database-url", requireLocalUrl("DATABASE_URL"), "--remove"]);
  if (seeded) await deleteTestUsers([seeded.participant.id, seeded.maintainer.id]);
});

async function checkAll(browser: Browser, baseURL: string, role: Role, pages: PageCheck[], user: TestUser | null): Promise<void> {
  const context = await browser.newContext({ baseURL, viewport: { width: VIEWPORTS[0], height: HEIGHT } });
  if (user) await signInContext(context, baseURL, user);
  const page = await context.newPage();
  const problems: string[] = [];
  try {
    for (const check of pages) await checkPage(page, role, check, problems);
  } finally {
    await context.close();
  }
  expect(problems, problems.join("\n")).toEqual([]);
}

test("[LAYOUT] every public page fits 390–1920 px with readable links and buttons, for an anonymous reader", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const data = seeded;
  if (!data) throw new Error("not seeded");
  await checkAll(browser, baseURL ?? "", "anonymous", [...PUBLIC_PAGES(data.entryId, data.otherId), { path: "/sign-in" }, { path: "/sign-up" }], null);
});

test("[LAYOUT] a participant's pages and the public ones fit every width", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const data = seeded;
  if (!data) throw new Error("not seeded");
  const own: PageCheck[] = [
    { path: "/submissions" },
    { path: "/submit" },
    { path: `/submissions/${data.submissionId}` },
    { path: `/submissions/${data.devSubmissionId}` },
    { path: `/submissions/${data.devSubmissionId}/samples` },
    { path: "/submissions/compare" },
    { path: "/runs" },
    { path: "/account" },
    { path: "/account/tokens" },
  ];
  await checkAll(browser, baseURL ?? "", "participant", [...own, ...PUBLIC_PAGES(data.entryId, data.otherId)], data.participant);
});

test("[LAYOUT] a maintainer's pages and the public ones fit every width", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const data = seeded;
  if (!data) throw new Error("not seeded");
  const admin: PageCheck[] = [
    { path: "/admin/review" },
    { path: "/admin/queue" },
    { path: "/admin/audit" },
    { path: "/admin/users" },
    { path: `/submissions/${data.submissionId}` },
    { path: "/submissions" },
  ];
  await checkAll(browser, baseURL ?? "", "maintainer", [...admin, ...PUBLIC_PAGES(data.entryId, data.otherId)], data.maintainer);
});

test("[LAYOUT] the leaderboard keeps rank and system in view when its table scrolls sideways", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, viewport: { width: 1366, height: HEIGHT } });
  const page = await context.newPage();
  await page.goto("/leaderboard?track=open&types=show&sort=type%3APerson&dir=desc");
  const region = page.getByRole("region", { name: /leaderboard of/ });
  await expect(region.locator("tbody tr").first()).toBeVisible();
  // With the seven per-type columns the table is wider than its region: scroll to the far right.
  const scrolled = await region.evaluate((element) => {
    element.scrollLeft = element.scrollWidth;
    return { scrollLeft: element.scrollLeft, left: element.getBoundingClientRect().left };
  });
  expect(scrolled.scrollLeft).toBeGreaterThan(0);
  const rank = await region.locator("tbody tr").first().locator('[data-column="rank"]').boundingBox();
  const system = await region.locator("tbody tr").first().locator('[data-column="system"]').boundingBox();
  expect(rank?.x ?? -1).toBeGreaterThanOrEqual(scrolled.left - 1);
  expect(rank?.x ?? 1e9).toBeLessThan(scrolled.left + 10);
  expect(system?.x ?? -1).toBeGreaterThanOrEqual((rank?.x ?? 0) + (rank?.width ?? 0) - 1);

  // The column picker hides a secondary metric and keeps the choice in this browser.
  await page.getByTestId("column-picker").locator("summary").click();
  await page.getByRole("checkbox", { name: "Exact" }).uncheck();
  await expect(region.locator('th[data-header="exact"]')).toHaveCount(0);
  await expect(region.locator("th[data-primary-metric]")).toHaveCount(1);
  await page.reload();
  await expect(region.locator('th[data-header="exact"]')).toHaveCount(0);
  await page.getByTestId("column-picker").locator("summary").click();
  await page.getByRole("checkbox", { name: "Parameters" }).check();
  await expect(region.locator('th[data-header="params"]')).toHaveCount(1);
  await context.close();
});

test("[LAYOUT] /favicon.ico is an icon", async ({ request }) => {
  const response = await request.get("/favicon.ico");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toMatch(/image\/(x-icon|vnd\.microsoft\.icon)/);
});
