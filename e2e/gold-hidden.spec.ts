import type { APIRequestContext, APIResponse } from "@playwright/test";
import { apiContextFor, createTestApiToken, createTestUser, deleteTestUsers, expect, getTestPool, test, type TestUser, waitForBaselines } from "./fixtures";
import { publicationBody } from "./fixtures/publication";
import { publishableTestFile } from "./fixtures/scored-upload";
import { checkJsonDigits, checkRscDigits, checkTextDigits, pageText, type DigitRules, type Json } from "../testing/disclosure-digits";

/**
 * Protocol section 3: the test split's gold (its QIDs and everything derived
 * from them) never leaves the server. Every page reachable from "/", every
 * download, public API, submission view and error body is fetched as an
 * anonymous visitor, as a participant with a scored test submission and as a
 * maintainer, and no response may show a test sample's id together with its
 * entity's QID or name. Every page is fetched a second time as its React
 * server component payload (the `RSC: 1` request a client navigation makes).
 * And nothing but the test download and refusals of a participant's own file
 * names a test sample at all, so no response can say which secret slice
 * (protocol section 12) a sample is in. The same bodies are checked for
 * section 12's digits: no number on a page, in its payload, in an API answer
 * or an export has more digits than section 12 allows (testing/disclosure-digits.ts),
 * for every identity on what the public sees, and on everything else for all
 * but the maintainer.
 */

const SCORING_TIMEOUT = 90_000;
const CRAWL_LIMIT = 200;
const DOWNLOADS = ["train.jsonl", "dev.jsonl", "test.jsonl", "kb.jsonl"];
const SKIPPED_PATHS = [/^\/api\/auth(\/|$)/, /^\/_next\//, /sign-?out/i, /\.(css|js|map|ico|png|svg|jpg|woff2?|txt|xml|webmanifest)$/];

type GoldSample = { id: string; qid: string; name: string };
type Fetched = { url: string; status: number; contentType: string; body: string };
type Identity = "anonymous" | "participant" | "maintainer";

/** The test split's gold, read straight from the database. */
async function loadTestGold(): Promise<GoldSample[]> {
  const result = await getTestPool().query<GoldSample>(
    `SELECT s."sampleId" AS id, e.qid, e.name
       FROM "Sample" s
       JOIN "Entity" e ON e.id = s."entityId"
       JOIN "DatasetRelease" r ON r.id = s."releaseId"
      WHERE r."isActive" AND s.split = 'test'
      ORDER BY s.ordinal`,
  );
  return result.rows;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The ways a string can be written into a body: as is, JSON-escaped (once or twice, as in RSC payloads), HTML-escaped, URL-encoded. */
function spellings(text: string): string[] {
  const json = JSON.stringify(text).slice(1, -1);
  const html = text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
  return [...new Set([text, json, JSON.stringify(json).slice(1, -1), html, html.replace(/'/g, "&#x27;"), html.replace(/'/g, "&#39;"), encodeURIComponent(text)])];
}

type GoldPattern = { sample: GoldSample; id: RegExp; qid: RegExp; names: string[] };

function goldPatterns(gold: readonly GoldSample[]): GoldPattern[] {
  return gold.map((sample) => ({
    sample,
    id: new RegExp(spellings(sample.id).map((spelling) => `(?<![A-Za-z0-9_-])${escapeRegExp(spelling)}(?![A-Za-z0-9_-])`).join("|")),
    qid: new RegExp(`(?<![A-Za-z0-9])${sample.qid}(?![0-9])`),
    names: spellings(sample.name),
  }));
}

/** What a text shows of the test gold: for every test sample whose id occurs in it, whether its QID or its name occurs too. */
function leaksIn(text: string, patterns: readonly GoldPattern[]): string[] {
  const found: string[] = [];
  for (const pattern of patterns) {
    if (!pattern.id.test(text)) continue;
    if (pattern.qid.test(text)) found.push(`test sample ${pattern.sample.id} with its QID ${pattern.sample.qid}`);
    if (pattern.names.some((name) => text.includes(name))) found.push(`test sample ${pattern.sample.id} with its entity name "${pattern.sample.name}"`);
  }
  return found;
}

function isJsonl(response: Fetched): boolean {
  return response.contentType.includes("jsonl") || new URL(response.url, "http://x").pathname.endsWith(".jsonl");
}

/**
 * A JSON line without its "collection": a sample's collection is public
 * (protocol section 3) and may coincide with its entity's name (samples of
 * the COVID-19 collection about COVID-19), which is not the gold leaving.
 */
function withoutCollection(line: string): string {
  try {
    const value: unknown = JSON.parse(line);
    if (value === null || typeof value !== "object" || Array.isArray(value)) return line;
    const { collection: _collection, ...rest } = value as Record<string, unknown>;
    return JSON.stringify(rest);
  } catch {
    return line;
  }
}

/** JSON Lines are checked line by line (a KB line names every entity, but no sample); anything else as a whole. */
function leaksInResponse(response: Fetched, patterns: readonly GoldPattern[]): string[] {
  const texts = isJsonl(response) ? response.body.split("\n").map(withoutCollection) : [response.body];
  return texts.flatMap((text, index) => leaksIn(text, patterns).map((leak) => `${response.url}${isJsonl(response) ? ` line ${index + 1}` : ""}: ${leak}`));
}

function idsIn(response: Fetched, patterns: readonly GoldPattern[]): number {
  return patterns.filter((pattern) => pattern.id.test(response.body)).length;
}

async function toFetched(url: string, response: APIResponse): Promise<Fetched> {
  return { url, status: response.status(), contentType: response.headers()["content-type"] ?? "", body: (await response.body()).toString("utf8") };
}

async function fetchText(api: APIRequestContext, url: string): Promise<Fetched> {
  return toFetched(url, await api.get(url));
}

/** Same-origin links of an HTML page, as path + query. */
function linksOf(html: string, pageUrl: string, origin: string): string[] {
  const links: string[] = [];
  for (const match of html.matchAll(/\bhref="([^"]*)"/g)) {
    const raw = (match[1] ?? "").replace(/&amp;/g, "&");
    if (raw === "" || raw.startsWith("#") || raw.startsWith("mailto:") || raw.startsWith("javascript:")) continue;
    const url = new URL(raw, new URL(pageUrl, origin));
    if (url.origin !== origin) continue;
    if (SKIPPED_PATHS.some((pattern) => pattern.test(url.pathname))) continue;
    links.push(`${url.pathname}${url.search}`);
  }
  return links;
}

/** Breadth-first over same-origin links from "/", at most `limit` URLs, one request context throughout. */
async function crawl(api: APIRequestContext, origin: string, limit: number): Promise<Fetched[]> {
  const seen = new Set<string>(["/"]);
  const queue = ["/"];
  const fetched: Fetched[] = [];
  while (queue.length > 0 && fetched.length < limit) {
    const url = queue.shift() ?? "/";
    const response = await fetchText(api, url);
    fetched.push(response);
    if (!response.contentType.includes("text/html")) continue;
    fetched.push(await toFetched(`${url} (RSC payload)`, await api.get(url, { headers: { RSC: "1" } })));
    for (const link of linksOf(response.body, url, origin)) {
      if (seen.has(link)) continue;
      seen.add(link);
      queue.push(link);
    }
  }
  return fetched;
}

type Scenario = {
  gold: GoldSample[];
  participant: TestUser;
  maintainer: TestUser;
  submissionId: string;
  /** The 422 answer to a test-split upload with problems. */
  rejectedUpload: Fetched;
};

const createdUserIds: string[] = [];
let scenario: Promise<Scenario> | undefined;

/**
 * Once per worker: a participant uploads the demo closed-track test file with
 * an API token, it is scored and published by a maintainer, and a broken
 * test-split upload is refused.
 */
async function setUpScenario(playwright: Parameters<typeof apiContextFor>[0], baseURL: string): Promise<Scenario> {
  await waitForBaselines(SCORING_TIMEOUT);
  const participant = await createTestUser({ label: "gold-participant" });
  const maintainer = await createTestUser({ label: "gold-maintainer", role: "MAINTAINER" });
  createdUserIds.push(participant.id, maintainer.id);
  const { token } = await createTestApiToken(participant.id);
  const api = await apiContextFor(playwright, baseURL, { kind: "token", token });
  const reviewer = await apiContextFor(playwright, baseURL, { kind: "session", user: maintainer });
  try {
    // A closed-track file the v1.3 publication guard lets through (the bundled demo files are too close to a baseline).
    const buffer = await publishableTestFile("closed");
    const created = await api.post("/api/submissions", { multipart: { file: { name: "test-closed.jsonl", mimeType: "application/jsonl", buffer } } });
    expect(created.status(), await created.text()).toBe(201);
    const { id, split } = (await created.json()) as { id: string; split: string };
    expect(split).toBe("test");
    await expect
      .poll(async () => ((await (await api.get(`/api/submissions/${id}`)).json()) as { status: string }).status, { timeout: SCORING_TIMEOUT })
      .toBe("SCORED");

    const publication = await api.post(`/api/submissions/${id}/publication`, {
      data: publicationBody(`Gold check ${Date.now()}`, { methodDescription: "A retriever used to check that the test gold stays hidden." }),
    });
    expect(publication.status(), await publication.text()).toBe(202);
    const review = await reviewer.post(`/api/admin/submissions/${id}/review`, { data: { action: "approve", reason: "Checked." } });
    expect(review.status(), await review.text()).toBe(200);

    // A broken test-split upload: an unknown QID in a ranking, a duplicate line, and a missing sample.
    const lines = buffer.toString("utf8").split("\n").filter((line) => line.trim() !== "");
    const third = JSON.parse(lines[2] ?? "{}") as { id: string; ranking: string[] };
    lines[2] = JSON.stringify({ id: third.id, ranking: ["Q999999999", ...third.ranking.slice(1)] });
    lines[lines.length - 1] = lines[0] ?? "";
    const rejected = await api.post("/api/submissions", {
      multipart: { file: { name: "broken-test.jsonl", mimeType: "application/jsonl", buffer: Buffer.from(`${lines.join("\n")}\n`) } },
    });
    const rejectedUpload = await toFetched("POST /api/submissions (broken test file)", rejected);
    expect(rejectedUpload.status, rejectedUpload.body).toBe(422);
    return { gold: await loadTestGold(), participant, maintainer, submissionId: id, rejectedUpload };
  } finally {
    await api.dispose();
    await reviewer.dispose();
  }
}

function getScenario(playwright: Parameters<typeof apiContextFor>[0], baseURL: string): Promise<Scenario> {
  scenario ??= setUpScenario(playwright, baseURL);
  return scenario;
}

test.afterAll(async () => {
  await deleteTestUsers(createdUserIds.splice(0));
});

/** The public API and error URLs every identity fetches besides the crawl. */
async function fixedUrls(api: APIRequestContext, gold: readonly GoldSample[], submissionId: string): Promise<string[]> {
  const urls = [
    ...DOWNLOADS.map((name) => `/dataset/download/${name}`),
    ...["open", "closed", "unified"].flatMap((track) => [
      `/api/leaderboard?track=${track}`,
      ...["csv", "json", "tex"].map((format) => `/api/leaderboard/export?track=${track}&format=${format}`),
    ]),
    "/api/entries",
    "/api/entries?split=dev",
    "/api/entries?split=test",
    "/api/entries?kind=baselines",
    ...gold.map((sample) => `/api/dataset/sample-split?id=${encodeURIComponent(sample.id)}`),
    `/api/submissions/${submissionId}`,
    `/submissions/${submissionId}`,
    "/api/submissions",
    "/api/me",
    "/api/quota",
    "/submissions",
    "/nope",
    "/entries/does-not-exist",
    "/api/entries/does-not-exist",
    "/api/submissions/does-not-exist",
    "/api/submissions/does-not-exist/samples",
    "/leaderboard/types/nope",
    "/dataset/download/nope.jsonl",
    "/api/leaderboard?track=bogus",
  ];
  const entries = (await (await api.get("/api/entries")).json()) as { entries: { id: string }[] };
  expect(entries.entries.length).toBeGreaterThan(0);
  for (const { id } of entries.entries) {
    urls.push(`/api/entries/${id}`, `/entries/${id}`, `/api/entries/${id}/export?table=by-type&format=json`, `/api/entries/${id}/export?table=by-collection&format=csv`);
  }
  return urls;
}

type Sweep = { responses: Fetched[]; leaks: string[]; crawled: number };

/**
 * The section 12 rules of the demo release's public numbers: its test split is
 * below 1,000 samples, so §12's floor, 1-point group rates below 1,000 ranking
 * samples (a protected release's policy starts at 2,000: docs/integrity.md, "Small groups").
 */
function digitRules(gold: readonly GoldSample[]): DigitRules {
  return { coarseBelowN: gold.length >= 1000 ? 2000 : 1000 };
}

/** Pages and answers whose numbers a maintainer sees unrounded: the submission views and the admin pages. */
const MAINTAINER_ONLY = [/^\/submissions\//, /^\/admin(\/|$)/, /^\/api\/submissions(\/|\?|$)/, /^\/api\/admin(\/|$)/];

/** The test ids of the dev entries: the dev gold is public, so their numbers are exact by design. */
function devEntryIds(responses: readonly Fetched[]): string[] {
  const list = responses.find((response) => response.url === "/api/entries?split=dev");
  if (!list || list.status !== 200) throw new Error("/api/entries?split=dev was not fetched");
  return ((JSON.parse(list.body) as { entries: { id: string }[] }).entries ?? []).map((entry) => entry.id);
}

/** What one fetched body shows beyond section 12's digits (empty: nothing). */
function digitProblemsIn(response: Fetched, rules: DigitRules): string[] {
  const problems: string[] = [];
  const where = `${response.url} (${response.status})`;
  if (response.url.endsWith("(RSC payload)")) checkRscDigits(where, response.body, problems, rules);
  else if (response.contentType.includes("text/html")) checkTextDigits(where, pageText(response.body), problems, true);
  else if (response.contentType.includes("json")) checkJsonDigits(where, JSON.parse(response.body) as Json, problems, rules);
  else checkTextDigits(where, response.body, problems, response.url.includes("format=tex"));
  return problems;
}

/**
 * Section 12's digits on every body the sweep fetched (no extra requests): all
 * of them for a participant or an anonymous reader, the public ones for a
 * maintainer. The dataset downloads and dev entries are public data, exact by
 * design. Returns how many bodies were checked, so the check is seen to bite.
 */
function expectPublicDigits(result: Sweep, identity: Identity, gold: readonly GoldSample[]): number {
  const devIds = devEntryIds(result.responses);
  const isDevEntry = (url: string) => devIds.some((id) => url.startsWith(`/entries/${id}`) || url.startsWith(`/api/entries/${id}`));
  const checked = result.responses.filter((response) => {
    const url = response.url;
    if (isJsonl(response) || url.startsWith("/dataset/download/") || url.startsWith("/api/dataset/sample-split") || isDevEntry(url)) return false;
    if (url === "/api/entries?split=dev") return false;
    return identity !== "maintainer" || !MAINTAINER_ONLY.some((pattern) => pattern.test(url));
  });
  const problems = checked.flatMap((response) => digitProblemsIn(response, digitRules(gold)));
  expect(problems, `${identity}: numbers with more digits than section 12 allows`).toEqual([]);
  return checked.length;
}

/** The crawl from "/" plus the fixed URLs, each fetched once with the identity's one request context. */
async function sweep(api: APIRequestContext, origin: string, current: Scenario, extra: readonly Fetched[] = []): Promise<Sweep> {
  const crawled = await crawl(api, origin, CRAWL_LIMIT);
  const seen = new Set(crawled.map((response) => response.url));
  const responses = [...crawled, ...extra];
  for (const url of await fixedUrls(api, current.gold, current.submissionId)) {
    if (seen.has(url)) continue;
    seen.add(url);
    responses.push(await fetchText(api, url));
  }
  const patterns = goldPatterns(current.gold);
  test.info().annotations.push({ type: "gold check", description: `${crawled.length} URLs crawled, ${responses.length} responses checked` });
  return { responses, leaks: responses.flatMap((response) => leaksInResponse(response, patterns)), crawled: crawled.length };
}

function byUrl(responses: readonly Fetched[], url: string): Fetched {
  const found = responses.find((response) => response.url === url);
  if (!found) throw new Error(`${url} was not fetched`);
  return found;
}

/** Checks that hold for every identity: the crawl went somewhere, test ids were seen (so the check had something to bite on), and no leak. */
function expectNoLeaks(result: Sweep, identity: Identity, patterns: readonly GoldPattern[]): void {
  expect(result.crawled, `${identity}: pages crawled`).toBeGreaterThan(10);
  const serverErrors = result.responses.filter((response) => response.status >= 500).map((response) => `${response.url} ${response.status}`);
  expect(serverErrors, `${identity}: server errors`).toEqual([]);
  const testFile = byUrl(result.responses, "/dataset/download/test.jsonl");
  expect(testFile.status).toBe(200);
  expect(idsIn(testFile, patterns), "every test id is in test.jsonl").toBe(patterns.length);
  expect(result.leaks, `${identity}: responses showing a test sample with its gold`).toEqual([]);
  const rsc = result.responses.filter((response) => response.url.endsWith("(RSC payload)") && response.status === 200);
  expect(rsc.length, `${identity}: RSC payloads fetched`).toBeGreaterThan(5);
  expect(rsc.every((response) => response.contentType.includes("text/x-component")), `${identity}: RSC payloads are payloads`).toBe(true);
  // Only the download names test samples, and refusals (a 4xx answer may name the file's own missing ids): nothing can name a slice.
  // A response may echo the one id its URL asks about (the dataset page's "which split is this id in?").
  const namedBeyondUrl = (response: Fetched) => patterns.filter((pattern) => pattern.id.test(response.body) && !pattern.id.test(decodeURIComponent(response.url))).length;
  const naming = result.responses
    .filter((response) => response.status < 400 && !isJsonl(response) && namedBeyondUrl(response) > 0)
    .map((response) => `${response.url}: ${namedBeyondUrl(response)} test sample ids`);
  expect(naming, `${identity}: responses naming test samples`).toEqual([]);
}

test.describe.configure({ timeout: 300_000 });

test("[GOLD] the check finds a planted leak and passes the public test file", async ({ playwright, baseURL }) => {
  const current = await getScenario(playwright, baseURL ?? "");
  expect(current.gold).toHaveLength(56);
  const patterns = goldPatterns(current.gold);
  const [first, second] = current.gold;
  if (!first || !second) throw new Error("no test gold");
  const planted = (body: string): Fetched => ({ url: "/planted", status: 200, contentType: "text/html", body });
  expect(leaksInResponse(planted(`<td>${first.id}</td><td>${first.qid}</td>`), patterns)).toHaveLength(1);
  expect(leaksInResponse(planted(JSON.stringify({ id: first.id, name: first.name })), patterns)).toHaveLength(1);
  expect(leaksInResponse(planted(`<p>${first.id}</p><p>${second.qid}</p>`), patterns)).toEqual([]);
  const jsonl = { url: "/x.jsonl", status: 200, contentType: "application/jsonl", body: `{"id":"${first.id}"}\n{"qid":"${first.qid}"}\n` };
  expect(leaksInResponse(jsonl, patterns)).toEqual([]);
  expect(leaksInResponse({ ...jsonl, body: `{"id":"${first.id}","qid":"${first.qid}"}\n` }, patterns)).toHaveLength(1);
  expect(leaksInResponse({ ...jsonl, body: `${JSON.stringify({ id: first.id, implicit_text: `about ${first.name}` })}\n` }, patterns)).toHaveLength(1);
  expect(leaksInResponse({ ...jsonl, body: `${JSON.stringify({ id: first.id, collection: first.name })}\n` }, patterns)).toEqual([]);

  // The digit check bites: a page percentage to 2 decimals, an unrounded rate in a payload, a 0.1-point rate of a small group.
  const rules = digitRules(current.gold);
  expect(digitProblemsIn(planted("<td>38.95</td>"), rules)).toHaveLength(1);
  expect(digitProblemsIn(planted("<td>38.9 [37.5, 40.3]</td><td>0.412</td><p>p &lt; 0.001</p>"), rules)).toEqual([]);
  const rsc = (body: string): Fetched => ({ url: "/planted (RSC payload)", status: 200, contentType: "text/x-component", body });
  expect(digitProblemsIn(rsc(`1:I["chunk.js",[],""]\n2:["$","td",null,{"children":"41.25"}]\n`), rules)).toHaveLength(1);
  expect(digitProblemsIn(rsc(`3:{"metrics":{"alias":0.38921}}\n`), rules)).toHaveLength(1);
  expect(digitProblemsIn(rsc(`3:{"byType":{"Place":{"n":40,"metrics":{"alias":0.413}}}}\n`), rules)).toHaveLength(1);
  expect(digitProblemsIn(rsc(`3:{"byType":{"Place":{"n":40,"metrics":{"alias":0.41},"ci95":{"alias":[0.263,0.563]}}}}\n`), rules)).toEqual([]);
  expect(digitProblemsIn({ url: "/api/x", status: 200, contentType: "application/json", body: JSON.stringify({ split: "test", comparisons: [{ b: 3 }] }) }, rules)).toHaveLength(1);
});

test("[GOLD] anonymous: no page, download, API answer or error shows a test sample with its gold", async ({ playwright, baseURL }) => {
  const current = await getScenario(playwright, baseURL ?? "");
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "anonymous" });
  try {
    const result = await sweep(api, new URL(baseURL ?? "").origin, current);
    expectNoLeaks(result, "anonymous", goldPatterns(current.gold));
    expect(expectPublicDigits(result, "anonymous", current.gold), "anonymous: bodies checked for digits").toBeGreaterThan(20);
    expect(byUrl(result.responses, `/api/submissions/${current.submissionId}`).status).toBe(401);
    const outcomes = await api.get(`/api/submissions/${current.submissionId}/samples`);
    expect([401, 404]).toContain(outcomes.status());
  } finally {
    await api.dispose();
  }
});

test("[GOLD] a participant with a scored test submission: views, outcomes, errors and the 422 of a broken upload hold no test gold", async ({
  playwright,
  baseURL,
}) => {
  const current = await getScenario(playwright, baseURL ?? "");
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "session", user: current.participant });
  const patterns = goldPatterns(current.gold);
  try {
    const result = await sweep(api, new URL(baseURL ?? "").origin, current, [current.rejectedUpload]);
    expectNoLeaks(result, "participant", patterns);
    expect(expectPublicDigits(result, "participant", current.gold), "participant: bodies checked for digits").toBeGreaterThan(20);

    const rejected = JSON.parse(current.rejectedUpload.body) as { error: { code: string; problems: { line?: number; message: string }[] } };
    expect(rejected.error.code).toBe("validation");
    const messages = rejected.error.problems.map((problem) => `${problem.line ?? "-"}: ${problem.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([expect.stringMatching(/^3: "ranking" entry 1 "Q999999999" is not in the KB/), expect.stringMatching(/^56: duplicate id/), expect.stringMatching(/^-: 1 sample of the test split missing: "/)]),
    );
    expect(idsIn(current.rejectedUpload, patterns), "the 422 names the missing test sample").toBeGreaterThan(0);

    const view = byUrl(result.responses, `/api/submissions/${current.submissionId}`);
    expect(view.status).toBe(200);
    const body = JSON.parse(view.body) as { status: string; split: string; failureReason: string | null; hasSampleOutcomes: boolean; score: unknown };
    expect(body).toMatchObject({ status: "SCORED", split: "test", failureReason: null, hasSampleOutcomes: false });
    expect(body.score).not.toBeNull();
    expect(idsIn(view, patterns), "the submission view names no test sample").toBe(0);

    for (const query of ["", "?page=1&pageSize=10&outcome=all", "?outcome=wrong", "?outcome=right", "?format=csv", "?format=jsonl"]) {
      const outcomes = await api.get(`/api/submissions/${current.submissionId}/samples${query}`);
      expect(outcomes.status(), `samples${query}`).toBe(404);
      expect(leaksIn(await outcomes.text(), patterns)).toEqual([]);
    }
    const page = byUrl(result.responses, `/submissions/${current.submissionId}`);
    expect(page.status).toBe(200);
    expect(page.body).not.toContain('data-testid="browse-samples"');
    expect(page.body).not.toContain('data-testid="sample-row"');
    expect(idsIn(page, patterns), "the submission page names no test sample").toBe(0);
    expect(result.responses.some((response) => response.url === "/submissions" && response.body.includes(current.submissionId))).toBe(true);
  } finally {
    await api.dispose();
  }
});

test("[GOLD] a maintainer: admin pages, the participant's submission and every public answer hold no test gold", async ({ playwright, baseURL }) => {
  const current = await getScenario(playwright, baseURL ?? "");
  const api = await apiContextFor(playwright, baseURL ?? "", { kind: "session", user: current.maintainer });
  const patterns = goldPatterns(current.gold);
  try {
    const result = await sweep(api, new URL(baseURL ?? "").origin, current);
    expectNoLeaks(result, "maintainer", patterns);
    expect(expectPublicDigits(result, "maintainer", current.gold), "maintainer: public bodies checked for digits").toBeGreaterThan(20);
    for (const adminPage of ["/admin/users", "/admin/review", "/admin/audit"]) {
      const fetched = result.responses.find((response) => response.url === adminPage) ?? (await fetchText(api, adminPage));
      expect(fetched.status, adminPage).toBe(200);
      expect(leaksInResponse(fetched, patterns)).toEqual([]);
    }
    const view = byUrl(result.responses, `/api/submissions/${current.submissionId}`);
    expect(view.status).toBe(200);
    expect(idsIn(view, patterns)).toBe(0);
    const outcomes = await api.get(`/api/submissions/${current.submissionId}/samples`);
    expect(outcomes.status()).toBe(404);
  } finally {
    await api.dispose();
  }
});
