import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getSamplesRoute } from "@/app/api/submissions/[id]/samples/route";
import { PATCH as patchNoteRoute } from "@/app/api/submissions/[id]/note/route";
import type { Entity, EntityType, Sample } from "@/lib/core/dataset/release-schema";
import { db } from "@/lib/platform/db";
import { parseCsv } from "@/testing/parse-csv";
import { getSharedRedis } from "@/lib/platform/redis";
import { compareDevRuns } from "@/lib/domain/submissions/compare-dev-runs";
import { exportSamples } from "@/lib/domain/submissions/export-samples";
import { getErrorAnalysis } from "@/lib/domain/submissions/get-error-analysis";
import { getSamplePage } from "@/lib/domain/submissions/get-sample-page";
import { sampleQuerySchema, type SampleQuery } from "@/lib/core/submissions/sample-schemas";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { processSubmission } from "@/lib/domain/scoring/process-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { updateSubmissionNote } from "@/lib/domain/submissions/update-submission-note";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { caught } from "./support/errors";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";
import { createHmac } from "node:crypto";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { independentNoise, independentRate, type NoiseKey } from "./support/independent-perturbation";

/**
 * The participant's workbench on a real database: the instance
 * browser's filters, search and exports, the comparison of two dev runs with
 * known flips, error classes, notes, and who may see what. Two open-world dev
 * runs differ on hand-picked samples; every expectation is counted by hand
 * from those picks.
 */
let release: TestRelease;
let owner: TestUser;
let maintainer: TestUser;
let stranger: TestUser;
let oldRunId = "";
let newRunId = "";
let closedRunId = "";
let testRunId = "";
let handTestRunId = "";
let strangerRunId = "";
let ownerToken = "";

function norm(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim().replace(/\s+/gu, " ");
}
const tokensOf = (text: string) => new Set(norm(text).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []);

function entityOf(sample: Sample): Entity {
  const entity = release.entityByQid.get(sample.qid);
  if (!entity) throw new Error(`no entity ${sample.qid}`);
  return entity;
}

/** Types of the KB entities bearing a normalised name or alias. */
function typesNamed(text: string): Set<EntityType> {
  const types = new Set<EntityType>();
  for (const entity of release.content.entities) {
    if ([entity.name, ...entity.aliases].some((name) => norm(name) === norm(text))) types.add(entity.type);
  }
  return types;
}

/** The name of a KB entity of `type` that shares no token with the gold and is borne only by entities of `type`. */
function unrelatedName(gold: Entity, type: EntityType): string {
  const goldTokens = new Set([gold.name, ...gold.aliases].flatMap((name) => [...tokensOf(name)]));
  const found = release.content.entities.find((candidate) => {
    if (candidate.qid === gold.qid || candidate.type !== type) return false;
    if ([...tokensOf(candidate.name)].some((token) => goldTokens.has(token))) return false;
    const types = typesNamed(candidate.name);
    return types.size === 1 && types.has(type);
  });
  if (!found) throw new Error(`no unrelated ${type} for ${gold.qid}`);
  return found.name;
}

type Picks = { p1: Sample; p2: Sample; p3: Sample; p4: Sample; l1: Sample; x1: Sample };
let picks: Picks;
let oldAnswers = new Map<string, string>();
let newAnswers = new Map<string, string>();
const NOT_IN_KB = "zzqx nonesuch vorpal";

function pickSamples(): Picks {
  const dev = release.content.samples.dev;
  const ofType = (type: EntityType) => dev.filter((sample) => entityOf(sample).type === type);
  const persons = ofType("Person");
  const places = ofType("Place");
  const others = dev.filter((sample) => !["Person", "Place"].includes(entityOf(sample).type));
  const [p1, p2, p3, p4] = persons;
  const [l1] = places;
  const [x1] = others;
  if (!p1 || !p2 || !p3 || !p4 || !l1 || !x1) throw new Error("the dev split lacks the samples this test needs");
  return { p1, p2, p3, p4, l1, x1 };
}

/**
 * old -> new, on the alias tier:
 *   p1 gold name -> a Place's name   broken (new class: wrong type)
 *   p2 another Person's name -> gold fixed  (old class: same type)
 *   p3 gold name -> gold name        same
 *   p4 a Place's name -> gold        fixed  (old class: wrong type)
 *   l1 "" -> gold                    fixed  (old class: empty)
 *   x1 gold -> a made-up name        broken (new class: not in KB)
 * everything else: the gold name in both. b = 3 fixed, c = 2 broken.
 */
function buildRuns(): void {
  const dev = release.content.samples.dev;
  const gold = (sample: Sample) => entityOf(sample).name;
  oldAnswers = new Map(dev.map((sample) => [sample.id, gold(sample)]));
  newAnswers = new Map(oldAnswers);
  newAnswers.set(picks.p1.id, unrelatedName(entityOf(picks.p1), "Place"));
  oldAnswers.set(picks.p2.id, unrelatedName(entityOf(picks.p2), "Person"));
  oldAnswers.set(picks.p4.id, unrelatedName(entityOf(picks.p4), "Place"));
  oldAnswers.set(picks.l1.id, "");
  newAnswers.set(picks.x1.id, NOT_IN_KB);
}

/** The first HAND_RIGHT test samples answered with the gold's name (class correct), every other one empty (class empty). */
const HAND_RIGHT = 10;
function handTestLines(): string[] {
  return release.content.samples.test.map((sample, index) => JSON.stringify({ id: sample.id, prediction: index < HAND_RIGHT ? entityOf(sample).name : "" }));
}

const linesOf = (answers: Map<string, string>) => release.content.samples.dev.map((sample) => JSON.stringify({ id: sample.id, prediction: answers.get(sample.id) }));
const query = (input: Record<string, unknown> = {}): SampleQuery => sampleQuerySchema.parse(input);

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(11);
  [owner, maintainer, stranger] = [await createTestUser({ label: "wb-owner", withoutPassword: true }), await createTestUser({ label: "wb-maintainer", role: "MAINTAINER", withoutPassword: true }), await createTestUser({ label: "wb-stranger", withoutPassword: true })];
  picks = pickSamples();
  buildRuns();
  oldRunId = (await submitLines(linesOf(oldAnswers), { userId: owner.id, originalName: "old.jsonl" })).id;
  newRunId = (await submitLines(linesOf(newAnswers), { userId: owner.id, originalName: "new.jsonl" })).id;
  closedRunId = (await submitLines(predictionLines(release, "dev", "closed", 0.5, 5), { userId: owner.id, originalName: "closed.jsonl" })).id;
  testRunId = (await submitLines(predictionLines(release, "test", "open", 0.5, 6), { userId: owner.id, originalName: "test.jsonl" })).id;
  strangerRunId = (await submitLines(linesOf(oldAnswers), { userId: stranger.id, originalName: "theirs.jsonl" })).id;
  handTestRunId = (await submitLines(handTestLines(), { userId: owner.id, originalName: "hand-test.jsonl" })).id;
  // The worker's own code path, in this process (the queue's jobs are left alone).
  for (const id of [oldRunId, newRunId, closedRunId, testRunId, strangerRunId, handTestRunId]) await processSubmission(id);
  ownerToken = (await createApiToken({ actor: sessionActor(owner), name: "workbench" })).token;
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

const idsOf = (rows: readonly { id: string }[]) => rows.map((row) => row.id);
const devIds = () => release.content.samples.dev.map((sample) => sample.id);

describe("the worker stores error classes", () => {
  it("dev: per sample with the answers; test: the summary only", async () => {
    const dev = await db.sampleAnalysis.findUniqueOrThrow({ where: { submissionId: oldRunId } });
    expect(dev.classes?.length).toBe(release.content.samples.dev.length);
    expect(dev.answers).not.toBeNull();
    const test = await db.sampleAnalysis.findUniqueOrThrow({ where: { submissionId: testRunId } });
    expect([test.classes, test.answerTypes, test.answers]).toEqual([null, null, null]);
    expect((test.summary as { n: number }).n).toBe(release.content.samples.test.length);
  });

  it("the old run's classes, counted by hand", async () => {
    const analysis = await getErrorAnalysis(sessionActor(owner), oldRunId);
    if (analysis.kind !== "dev") throw new Error("expected the dev analysis");
    const n = release.content.samples.dev.length;
    expect(analysis.counts).toEqual({ correct: n - 3, partial: 0, empty: 1, wrong_type: 1, same_type: 1, not_in_kb: 0 });
    expect(analysis.byType.Person?.counts).toMatchObject({ wrong_type: 1, same_type: 1 });
    // p4 (a Person) answered with a Place's name; l1 (a Place) left empty.
    expect(analysis.confusion.Person?.Place).toBe(1);
    expect(analysis.confusion.Place?.none).toBe(1);
  });
});

describe("instance browser: filters, search, sort, pages", () => {
  it("Person samples with a wrong-type answer in the new run: exactly p1, with its narrative, gold and answer", async () => {
    const page = await getSamplePage(sessionActor(owner), newRunId, query({ type: "Person", class: "wrong_type" }));
    expect(idsOf(page.rows)).toEqual([picks.p1.id]);
    const [row] = page.rows;
    const gold = entityOf(picks.p1);
    expect(row).toMatchObject({
      narrative: picks.p1.implicit_text,
      collection: picks.p1.collection,
      gold: { qid: gold.qid, name: gold.name, type: "Person", aliases: gold.aliases, description: gold.description },
      prediction: newAnswers.get(picks.p1.id),
      tier: null,
      isRight: false,
      errorClass: "wrong_type",
      answerType: "Place",
    });
  });

  it("entity type and collection filters keep only their samples", async () => {
    const dev = release.content.samples.dev;
    const persons = dev.filter((sample) => entityOf(sample).type === "Person").map((sample) => sample.id);
    expect(idsOf((await getSamplePage(sessionActor(owner), newRunId, query({ type: "Person", pageSize: 500 }))).rows)).toEqual(persons);
    const collection = picks.l1.collection;
    const inCollection = dev.filter((sample) => sample.collection === collection).map((sample) => sample.id);
    expect(idsOf((await getSamplePage(sessionActor(owner), newRunId, query({ collection, pageSize: 500 }))).rows)).toEqual(inCollection);
  });

  it("right/wrong, tier bucket and class: the two broken samples are the new run's only wrong ones", async () => {
    const wrong = await getSamplePage(sessionActor(owner), newRunId, query({ outcome: "wrong" }));
    expect(new Set(idsOf(wrong.rows))).toEqual(new Set([picks.p1.id, picks.x1.id]));
    const noMatch = await getSamplePage(sessionActor(owner), newRunId, query({ bucket: "none" }));
    expect(new Set(idsOf(noMatch.rows))).toEqual(new Set([picks.p1.id, picks.x1.id]));
    expect(idsOf((await getSamplePage(sessionActor(owner), newRunId, query({ class: "not_in_kb" }))).rows)).toEqual([picks.x1.id]);
    const right = await getSamplePage(sessionActor(owner), newRunId, query({ outcome: "right", pageSize: 500 }));
    expect(right.total).toBe(release.content.samples.dev.length - 2);
  });

  it("search finds the narrative, the answer and the gold name, case-insensitively", async () => {
    const words = picks.p3.implicit_text.split(/\s+/).slice(3, 8).join(" ").toUpperCase();
    const byNarrative = await getSamplePage(sessionActor(owner), newRunId, query({ q: words, pageSize: 500 }));
    expect(idsOf(byNarrative.rows)).toContain(picks.p3.id);
    for (const row of byNarrative.rows) expect(norm(row.narrative)).toContain(norm(words));

    expect(idsOf((await getSamplePage(sessionActor(owner), newRunId, query({ q: NOT_IN_KB.toUpperCase() }))).rows)).toEqual([picks.x1.id]);

    const goldName = entityOf(picks.l1).name;
    const byGold = await getSamplePage(sessionActor(owner), newRunId, query({ q: goldName, pageSize: 500 }));
    expect(idsOf(byGold.rows)).toContain(picks.l1.id);
    for (const row of byGold.rows) {
      const haystack = norm(`${row.narrative} ${row.gold.name} ${row.prediction ?? ""}`);
      expect(haystack).toContain(norm(goldName));
    }
  });

  it("sorts and pages: descending sample id, pages of 7 that tile the whole list", async () => {
    const sorted = [...devIds()].sort().reverse();
    const all = await getSamplePage(sessionActor(owner), newRunId, query({ sort: "id", dir: "desc", pageSize: 500 }));
    expect(idsOf(all.rows)).toEqual(sorted);
    const second = await getSamplePage(sessionActor(owner), newRunId, query({ sort: "id", dir: "desc", pageSize: 7, page: 2 }));
    expect(idsOf(second.rows)).toEqual(sorted.slice(7, 14));
    expect(second.total).toBe(sorted.length);
  });

  it("the CSV and JSON Lines exports are exactly the filtered rows, in order, across pages", async () => {
    for (const filters of [{}, { outcome: "wrong" }, { type: "Person", sort: "id", dir: "desc" }, { q: "the" }]) {
      const listed = await getSamplePage(sessionActor(owner), newRunId, query({ ...filters, pageSize: 500 }));
      const csv = await exportSamples(sessionActor(owner), newRunId, { ...query(filters), format: "csv" });
      const [header, ...cells] = parseCsv(csv.body);
      expect(header?.[0]).toBe("id");
      expect(cells.map((cell) => cell[0])).toEqual(idsOf(listed.rows));
      const jsonl = await exportSamples(sessionActor(owner), newRunId, { ...query(filters), format: "jsonl" });
      const parsed = jsonl.body.trimEnd().split("\n").filter(Boolean).map((line) => JSON.parse(line) as unknown);
      expect(parsed).toEqual(listed.rows);
    }
  });

  it("a filter of the other track or a page size over 500 is refused with the parameter named", async () => {
    const error = await caught(() => getSamplePage(sessionActor(owner), newRunId, query({ bucket: "2-3" })));
    expect(error.code).toBe("validation");
    expect(error.message).toMatch(/query parameter "bucket": "2-3" is not a bucket of the open-world track/);
    const classError = await caught(() => getSamplePage(sessionActor(owner), newRunId, query({ class: "alias_twin" })));
    expect(classError.message).toMatch(/query parameter "class": "alias_twin" \(alias twin\) is not an error class of the open-world track/);
    const response = await getSamplesRoute(
      new Request(`http://localhost/api/submissions/${newRunId}/samples?pageSize=501&type=Alien`, { headers: { authorization: `Bearer ${ownerToken}` } }),
      { params: Promise.resolve({ id: newRunId }) },
    );
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/query parameter "pageSize" must be at most 500/);
    expect(body.error.message).toMatch(/query parameter "type" must be one of Place/);
    const unknown = await getSamplesRoute(new Request(`http://localhost/api/submissions/${newRunId}/samples?clas=empty`, { headers: { authorization: `Bearer ${ownerToken}` } }), {
      params: Promise.resolve({ id: newRunId }),
    });
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toMatch(/unknown query parameter "clas"/);
  });

  it("the API serves CSV with a download name, over a token", async () => {
    const response = await getSamplesRoute(
      new Request(`http://localhost/api/submissions/${newRunId}/samples?outcome=wrong&format=csv`, { headers: { authorization: `Bearer ${ownerToken}` } }),
      { params: Promise.resolve({ id: newRunId }) },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="samples-${newRunId}.csv"`);
    expect(parseCsv(await response.text())).toHaveLength(3);
  });

  it("closed track: top 5 with KB names and types, rank buckets", async () => {
    const page = await getSamplePage(sessionActor(owner), closedRunId, query({ pageSize: 500 }));
    for (const row of page.rows) {
      expect(row.prediction).toBeNull();
      expect(row.top?.length).toBeGreaterThan(0);
      expect(row.top?.length).toBeLessThanOrEqual(5);
      for (const entity of row.top ?? []) expect(entity).toEqual({ qid: entity.qid, name: release.entityByQid.get(entity.qid)?.name, type: release.entityByQid.get(entity.qid)?.type });
      expect(row.isRight).toBe(row.rank === 1);
    }
    const firsts = await getSamplePage(sessionActor(owner), closedRunId, query({ bucket: "1", pageSize: 500 }));
    expect(firsts.rows.every((row) => row.rank === 1 && row.errorClass === "correct")).toBe(true);
    expect(firsts.total).toBe(page.rows.filter((row) => row.rank === 1).length);
  });

  it("a run scored before error classes were stored gets them on first read, the same as the worker's", async () => {
    const before = await getSamplePage(sessionActor(owner), oldRunId, query({ pageSize: 500 }));
    await db.sampleAnalysis.delete({ where: { submissionId: oldRunId } });
    const after = await getSamplePage(sessionActor(owner), oldRunId, query({ pageSize: 500 }));
    expect(after.rows).toEqual(before.rows);
    expect(await db.sampleAnalysis.count({ where: { submissionId: oldRunId } })).toBe(1);
  });
});

describe("comparing two dev runs", () => {
  it("fixed and broken as planted, McNemar b = 3, c = 2, per-type differences", async () => {
    const comparison = await compareDevRuns(sessionActor(owner), { old: oldRunId, new: newRunId });
    const n = release.content.samples.dev.length;
    expect(comparison.metric).toBe("alias");
    expect(comparison.oldRate).toBeCloseTo((n - 3) / n, 12);
    expect(comparison.newRate).toBeCloseTo((n - 2) / n, 12);
    // chi2 = (|3 - 2| - 1)^2 / 5 = 0; exact p = 2 * P(X <= 2), X ~ Bin(5, 1/2) = 2 * 16/32 = 1.
    expect(comparison.mcnemar).toMatchObject({ b: 3, c: 2, chi2: 0, p_exact: 1 });
    expect(comparison.mcnemar.p).toBeCloseTo(1, 12);
    const person = comparison.byType.find((row) => row.type === "Person");
    expect(person).toMatchObject({ fixed: 2, broken: 1 });
    expect(comparison.byType.find((row) => row.type === "Place")).toMatchObject({ fixed: 1, broken: 0 });
  });

  it("the browser limited to changed samples: broken Person samples and what the new run answered instead", async () => {
    const changed = await getSamplePage(sessionActor(owner), newRunId, query({ against: oldRunId }));
    expect(new Set(idsOf(changed.rows))).toEqual(new Set([picks.p1.id, picks.p2.id, picks.p4.id, picks.l1.id, picks.x1.id]));
    const broken = await getSamplePage(sessionActor(owner), newRunId, query({ against: oldRunId, change: "broken", type: "Person" }));
    expect(idsOf(broken.rows)).toEqual([picks.p1.id]);
    expect(broken.rows[0]).toMatchObject({
      prediction: newAnswers.get(picks.p1.id),
      errorClass: "wrong_type",
      against: { prediction: entityOf(picks.p1).name, errorClass: "correct", change: "broken", isRight: true },
    });
    const fixed = await getSamplePage(sessionActor(owner), newRunId, query({ against: oldRunId, change: "fixed" }));
    expect(new Set(idsOf(fixed.rows))).toEqual(new Set([picks.p2.id, picks.p4.id, picks.l1.id]));
    const csv = await exportSamples(sessionActor(owner), newRunId, { ...query({ against: oldRunId, change: "broken" }), format: "csv" });
    const [header, ...cells] = parseCsv(csv.body);
    expect(header).toContain("other_answer");
    expect(new Set(cells.map((cell) => cell[0]))).toEqual(new Set([picks.p1.id, picks.x1.id]));
  });

  it("refuses runs of different tracks, the same run twice, and another participant's run", async () => {
    expect((await caught(() => compareDevRuns(sessionActor(owner), { old: closedRunId, new: newRunId }))).message).toMatch(/different tracks/);
    expect((await caught(() => compareDevRuns(sessionActor(owner), { old: newRunId, new: newRunId }))).code).toBe("validation");
    expect((await caught(() => compareDevRuns(sessionActor(owner), { old: strangerRunId, new: newRunId }))).code).toBe("not_found");
    expect((await caught(() => getSamplePage(sessionActor(owner), newRunId, query({ against: strangerRunId })))).code).toBe("not_found");
    expect((await caught(() => compareDevRuns(sessionActor(owner), { old: testRunId, new: newRunId }))).code).toBe("not_found");
  });
});

describe("who may see what", () => {
  it("another participant gets 404 for the browser, the analysis, the comparison and the note", async () => {
    expect((await caught(() => getSamplePage(sessionActor(stranger), newRunId, query()))).code).toBe("not_found");
    expect((await caught(() => getErrorAnalysis(sessionActor(stranger), newRunId))).code).toBe("not_found");
    expect((await caught(() => compareDevRuns(sessionActor(stranger), { old: oldRunId, new: newRunId }))).code).toBe("not_found");
    expect((await caught(() => updateSubmissionNote(sessionActor(stranger), newRunId, { note: "mine now" }))).code).toBe("not_found");
  });

  it("a maintainer may read a dev run's samples but not edit its note (403)", async () => {
    expect((await getSamplePage(sessionActor(maintainer), newRunId, query())).total).toBe(release.content.samples.dev.length);
    expect((await caught(() => updateSubmissionNote(sessionActor(maintainer), newRunId, { note: "x" }))).code).toBe("forbidden");
  });

  it("a test submission: no samples for anyone; error classes only as the owner's shares after publication", async () => {
    for (const user of [owner, maintainer, stranger]) {
      expect((await caught(() => getSamplePage(sessionActor(user), testRunId, query()))).code, user.email).toBe("not_found");
    }
    const response = await getSamplesRoute(new Request(`http://localhost/api/submissions/${testRunId}/samples?format=csv`, { headers: { authorization: `Bearer ${ownerToken}` } }), {
      params: Promise.resolve({ id: testRunId }),
    });
    expect(response.status).toBe(404);
    const body = await response.text();
    for (const sample of release.content.samples.test) expect(body).not.toContain(sample.id);

    expect((await caught(() => getErrorAnalysis(sessionActor(owner), testRunId))).message).toMatch(/after publication only/);
    await db.submission.update({ where: { id: testRunId }, data: { publication: "PUBLISHED", publishedAt: new Date() } });
    const shown = await getErrorAnalysis(sessionActor(owner), testRunId);
    expect(shown.kind).toBe("test");
    if (shown.kind !== "test") return;
    const total = Object.values(shown.shares).reduce((sum, share) => sum + share, 0);
    expect(total).toBeCloseTo(1, 2);
    for (const share of Object.values(shown.shares)) expect(Number(share.toFixed(3))).toBe(share);
    expect(JSON.stringify(shown)).not.toMatch(/byType|confusion|"counts"/);
    expect((await caught(() => getErrorAnalysis(sessionActor(stranger), testRunId))).code).toBe("not_found");
  });
});

describe("error classes of a published test entry (protocol section 12)", () => {
  // hand-test.jsonl: the first 10 of the 232 test samples right (class correct), the other 222 empty.
  const ranking = async () => Array.from((await loadSplitGold(release.releaseId, "test")).slices?.ranking ?? []);
  const secret = () => sliceSecretOf(getEnv());
  /** Section 12 from its text: a sample is in the feedback slice when HMAC(secret, family/qid)'s first 8 bytes / 2^64 < 0.25. */
  const independentRanking = () =>
    release.content.samples.test.flatMap((sample, position) => {
      const head = createHmac("sha256", secret()).update(`${release.content.meta.name}/${sample.qid}`).digest().readBigUInt64BE(0);
      return head < 2n ** 64n / 4n ? [] : [position];
    });

  it("the ranking slice is the samples whose gold entity the HMAC puts there: 168 of the 232, 6 of the first 10", async () => {
    const positions = await ranking();
    expect(positions).toEqual(independentRanking());
    expect(positions).toHaveLength(168);
    expect(positions.filter((position) => position < HAND_RIGHT)).toEqual([2, 4, 6, 7, 8, 9]);
  });

  it("a maintainer sees the whole split's shares unrounded, before publication too; the owner nothing yet", async () => {
    const shown = await getErrorAnalysis(sessionActor(maintainer), handTestRunId);
    // 10 / 232 correct, 222 / 232 empty.
    expect(shown).toMatchObject({ kind: "test", slice: "whole", n: 232, shares: { correct: 10 / 232, partial: 0, empty: 222 / 232, wrong_type: 0, same_type: 0, not_in_kb: 0 } });
    expect((await caught(() => getErrorAnalysis(sessionActor(owner), handTestRunId))).message).toMatch(/after publication only/);
  });

  it("after publication the owner sees the ranking slice's class counts perturbed (section 12), shares over their sum to 0.1 point, never the whole split's", async () => {
    await db.submission.update({ where: { id: handTestRunId }, data: { publication: "PUBLISHED", publishedAt: new Date() } });
    // Exact: 6 / 168 correct, 162 / 168 empty. Each class count gets its own noise (ENTRY/error/CLASS), clamped to [0, 168].
    const exact = { correct: 6, partial: 0, empty: 162, wrong_type: 0, same_type: 0, not_in_kb: 0 };
    const releaseRow = await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId }, select: { name: true, goldSha256: true } });
    const key: NoiseKey = { secret: secret(), releaseName: releaseRow.name, goldVersion: goldVersionId(releaseGoldOf(releaseRow.goldSha256, "test")!) };
    const perturbed = Object.entries(exact).map(([name, k]) => [name, Math.min(168, Math.max(0, k + independentNoise(key, `${handTestRunId}/error/${name}`)))] as const);
    const total = perturbed.reduce((sum, [, k]) => sum + k, 0);
    const shares = Object.fromEntries(perturbed.map(([name, k]) => [name, independentRate(k, total)]));
    const expected = { kind: "test", slice: "ranking", n: 168, shares };
    expect(await getErrorAnalysis(sessionActor(owner), handTestRunId)).toMatchObject(expected);
    // A test row stored before the ranking slice's counts were kept is made again, not shown on the whole split.
    const row = await db.sampleAnalysis.findUniqueOrThrow({ where: { submissionId: handTestRunId } });
    const { rankingSlice, ...withoutSlice } = row.summary as Record<string, unknown>;
    expect(rankingSlice).toEqual({ n: 168, counts: exact });
    await db.sampleAnalysis.update({ where: { submissionId: handTestRunId }, data: { summary: withoutSlice as object } });
    expect(await getErrorAnalysis(sessionActor(owner), handTestRunId)).toMatchObject(expected);
    expect((await db.sampleAnalysis.findUniqueOrThrow({ where: { submissionId: handTestRunId } })).summary).toMatchObject({ rankingSlice: { n: 168 } });
  });
});

describe("notes on runs", () => {
  it("the owner saves a note (trimmed); a bad one is refused with the field named", async () => {
    expect(await updateSubmissionNote(sessionActor(owner), newRunId, { note: "  fixed the alias lookup  " })).toEqual({ id: newRunId, note: "fixed the alias lookup" });
    expect((await db.submission.findUniqueOrThrow({ where: { id: newRunId } })).note).toBe("fixed the alias lookup");
    const tooLong = await caught(() => updateSubmissionNote(sessionActor(owner), newRunId, { note: "x".repeat(1001) }));
    expect(tooLong.code).toBe("validation");
    expect(tooLong.problems[0]?.message).toBe("note: must be at most 1,000 characters");
    expect((await caught(() => updateSubmissionNote(sessionActor(owner), newRunId, { note: 42 }))).problems[0]?.message).toBe("note: must be text");
    expect((await caught(() => updateSubmissionNote(sessionActor(owner), newRunId, { note: "bell\u0007" }))).problems[0]?.message).toBe("note: must not contain control characters");
  });

  it("over the API: a token's PATCH works for the owner", async () => {
    const response = await patchNoteRoute(
      new Request(`http://localhost/api/submissions/${oldRunId}/note`, {
        method: "PATCH",
        headers: { authorization: `Bearer ${ownerToken}`, "content-type": "application/json" },
        body: JSON.stringify({ note: "baseline run" }),
      }),
      { params: Promise.resolve({ id: oldRunId }) },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ id: oldRunId, note: "baseline run" });
  });
});
