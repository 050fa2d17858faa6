import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getEntryRoute } from "@/app/api/entries/[id]/route";
import { GET as getSubmissionRoute } from "@/app/api/submissions/[id]/route";
import { POST as postPublicationRoute } from "@/app/api/submissions/[id]/publication/route";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import type { Sample } from "@/lib/core/dataset/release-schema";
import { db } from "@/lib/platform/db";
import { DEVELOPMENT_SLICE_SECRET } from "@/lib/platform/env";
import { getSharedRedis } from "@/lib/platform/redis";
import { norm } from "@/lib/core/scoring/normalize";
import { tierOf } from "@/lib/core/scoring/open-world";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import { isFeedbackEntity } from "@/lib/core/slices/slice-membership";
import { readStoredReport } from "@/lib/core/scoring/stored-report";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestServices } from "@/testing/local-database";
import { publicationRequest } from "@/testing/publication-request";
import { entityOf, isAliasHitFor, knownWrong } from "./support/known-wrong";
import { killAllChildren } from "./support/processes";
import { importFullRelease, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { crawlAsEveryone, fidelityChecks } from "./support/slice-checks";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Protocol v1.2 section 12 on a release of the paper's size (4,633 test
 * samples), attacked as a participant would: through the owner's API
 * (GET /api/submissions/ID with an API token), the publication request
 * (POST /api/submissions/ID/publication), a maintainer's approval and the
 * public API (GET /api/entries/ID), against the real worker.
 *
 * Every file below is an *anchored probe*: every answer has an outcome the
 * attacker knows (padding: KB entities of no train or dev sample that are not
 * the sample's gold, which an attacker's own model believes wrong; anchors:
 * golds recovered earlier) except the probed ones, so the count behind every
 * shown number is known up to the probed answers and can be put on a rounding
 * boundary. The test computes slice membership from the test secret to aim
 * the probes; the attacker cannot, and the point is what each aim recovers.
 */

const RELEASE_SEED = 23;
const SLICE_SECRET = process.env.IRC_SLICE_SECRET ?? DEVELOPMENT_SLICE_SECRET;
/** max(25, 1% of 4,633): the differencing distance of section 12. */
const MIN_DIFFERENCE = 47;
const MIN_GROUP_N = 30;
const QUOTA_PER_ACCOUNT = 5;

type Hypothesis = string | "none";
type Shown = Record<string, number | undefined>;
type Group = { n: number; suppressed?: boolean; isSuppressed?: boolean; metrics: Shown };
type PublicScore = { n: number; metrics: Shown; by_type: Record<string, Group>; by_collection: Record<string, Group> };

let release: TestRelease;
let worker: WorkerProcess;
let maintainer: TestUser;
let testSamples: Sample[] = [];
let feedbackIds = new Set<string>();
/** KB entities of no train or dev sample: where test gold can be; every padding answer is one of them. */
let testPool: string[] = [];
const accounts: { user: TestUser; token: string; used: number }[] = [];
let submissionsUsed = 0;
/** Every public entry the attacks made, for the fidelity and crawl checks. */
const publishedIds: string[] = [];
let baselineIds: string[] = [];
/** One scored, unpublished probe file and its owner, for the owner checks. */
let ownerProbe: { id: string; token: string; userId: string } | null = null;

/** Protocol §12 (v1.3): a sample's slice is its gold entity's. */
const isFeedback = (sampleId: string) => {
  const sample = release.content.samples.test.find((candidate) => candidate.id === sampleId);
  if (!sample) throw new Error(`no test sample ${sampleId}`);
  return isFeedbackEntity({ secret: SLICE_SECRET, sliceFamily: release.content.meta.name, feedbackFraction: 0.25 }, sample.qid);
};
const entity = (qid: string) => entityOf(release, qid);
/** alias_hit@1 of a top-ranked entity for a sample whose gold is `goldQid`. */
const aliasHit = (top: string, goldQid: string) => isAliasHitFor(release, top, goldQid);
const roundRate = (value: number) => Number(value.toFixed(3));

/**
 * How public group rates are rounded: 1 point below `coarseBelowN` ranking samples. The decoder knows the rules.
 * PLATFORM: this protected release's policy (docs/integrity.md, "Small groups"). FLOOR: section 12's floor, groups
 * below min_group_n (30) hidden, 1-point rates below 1,000: the positive control, fed to the same decoder.
 */
type GroupRounding = { minGroupN: number; coarseBelowN: number };
const FLOOR_ROUNDING: GroupRounding = { minGroupN: MIN_GROUP_N, coarseBelowN: 1000 };
/** Protocol v1.3: the platform's group policy is section 12's floor; what protects the shown numbers is the noise of their counts. */
const PLATFORM_ROUNDING: GroupRounding = FLOOR_ROUNDING;
const roundGroup = (value: number, n: number, rounding: GroupRounding) => (n < rounding.coarseBelowN ? Number(value.toFixed(2)) : roundRate(value));

/** The maintainer-level, unrounded report of a stored test file on the ranking slice. */
async function rankingReport(id: string): Promise<ScoreReport> {
  const score = await db.score.findUniqueOrThrow({ where: { submissionId: id }, select: { rankingReport: true } });
  const report = readStoredReport(score.rankingReport);
  if (report === null) throw new Error(`submission ${id} has no ranking-slice report`);
  return report;
}

/**
 * What section 12's floor alone would show of a ranking-slice report: overall rates to 0.1 point, group rates to
 * 1 point below 1,000 samples, groups below min_group_n by their size only, no group MRR. Written out here, not
 * through lib/core/disclosure, so the control does not lean on the code under test.
 */
function floorView(report: ScoreReport): PublicScore {
  const groups = (raw: Record<string, { n: number; metrics: Record<string, number | null> } | undefined>): Record<string, Group> => {
    const out: Record<string, Group> = {};
    for (const [name, group] of Object.entries(raw)) {
      if (group === undefined || group.n === 0) continue;
      const suppressed = group.n < FLOOR_ROUNDING.minGroupN;
      const metrics: Shown = {};
      if (!suppressed) for (const [key, value] of Object.entries(group.metrics)) if (key !== "mrr" && value !== null) metrics[key] = roundGroup(value, group.n, FLOOR_ROUNDING);
      out[name] = { n: group.n, suppressed, metrics };
    }
    return out;
  };
  return {
    n: report.n,
    metrics: Object.fromEntries(Object.entries(report.metrics).map(([key, value]) => [key, roundRate(value as number)])),
    by_type: groups(report.by_type as Record<string, { n: number; metrics: Record<string, number | null> } | undefined>),
    by_collection: groups(report.by_collection),
  };
}

/**
 * A known-wrong answer for a sample: the `k`-th test candidate of generation
 * `generation` that is not the sample's gold and that no metric would count
 * (another name, no alias hit, no open-world tier). A new generation gives a
 * fresh answer, so two files differ there as the scorer reads them.
 */
function wrongFor(sample: Sample, generation: number, k = 0): string {
  return knownWrong(release, testPool, sample, generation, k);
}

const closedPadding = (sample: Sample, generation: number) => {
  const first = wrongFor(sample, generation, 0);
  let second = wrongFor(sample, generation, 1);
  for (let k = 2; second === first; k += 1) second = wrongFor(sample, generation, k);
  return JSON.stringify({ id: sample.id, ranking: [first, second] });
};
const openPadding = (sample: Sample, generation: number) => JSON.stringify({ id: sample.id, prediction: entity(wrongFor(sample, generation)).name });

/** How many KB entities each normalised name or alias names: an answer naming a unique one is that entity alone in the unified view. */
let entitiesNamed = new Map<string, number>();

/**
 * A known-wrong answer as `wrongFor`, of one entity type and with a name no other entity bears, so that in the unified
 * view (the publication guard's) it names that entity and that type only, as an open answer and as a closed top-1.
 */
function wrongOfType(sample: Sample, generation: number, type: string): string {
  for (let k = 0; ; k += 1) {
    const qid = wrongFor(sample, generation, k);
    const candidate = entity(qid);
    if (candidate.type === type && entitiesNamed.get(norm(candidate.name)) === 1) return qid;
  }
}

function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The attacker's candidate list for a sample: the gold among known-wrong others (the best case for the attacker: the gold is always listed). */
function candidatesFor(sample: Sample, count: number, seed: number): string[] {
  const others = new Set<string>();
  for (let k = 0; others.size < count - 1; k += 1) others.add(wrongFor(sample, 3000 + seed, k));
  return seededShuffle([sample.qid, ...others], seed);
}

/** An approved participant account with an API token; a new one whenever the last has used its daily quota. */
async function account(fresh = false): Promise<{ user: TestUser; token: string; used: number }> {
  let current = accounts.at(-1);
  if (fresh || current === undefined || current.used >= QUOTA_PER_ACCOUNT) {
    const user = await createTestUser({ label: `prober-${accounts.length}`, withoutPassword: true });
    await db.user.update({ where: { id: user.id }, data: { approvedAt: new Date() } });
    current = { user, token: (await createApiToken({ actor: sessionActor(user), name: "probe" })).token, used: 0 };
    accounts.push(current);
  }
  return current;
}

async function upload(lines: readonly string[], owner?: { user: TestUser; token: string; used: number }) {
  const who = owner ?? (await account());
  who.used += 1;
  const submission = await submitLines(lines, { userId: who.user.id, declaredSplit: "test" });
  submissionsUsed += 1;
  record("upload", { submissionsUsed });
  await waitForAllSettled([submission.id], { timeoutMs: 120_000, workers: [worker] });
  return { id: submission.id, owner: who };
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });

/** What the owner's API answers: the feedback slice's rounded overall metrics and n. */
async function ownerView(id: string, token: string): Promise<{ n: number; metrics: Shown }> {
  const response = await getSubmissionRoute(new Request(`http://127.0.0.1/api/submissions/${id}`, { headers: { authorization: `Bearer ${token}` } }), params(id));
  expect(response.status).toBe(200);
  const body = (await response.json()) as { score: { report: { n: number; metrics: Shown } } | null };
  if (body.score === null) throw new Error(`submission ${id} has no score`);
  return body.score.report;
}

async function publicView(id: string): Promise<PublicScore> {
  const response = await getEntryRoute(new Request(`http://127.0.0.1/api/entries/${id}`), params(id));
  expect(response.status).toBe(200);
  return ((await response.json()) as { score: PublicScore }).score;
}

/** The owner asks for publication through the API, and a maintainer approves (acknowledging whatever probe flag the file raises). */
async function publish(id: string, token: string, systemName: string): Promise<void> {
  const response = await postPublicationRoute(
    new Request(`http://127.0.0.1/api/submissions/${id}/publication`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(publicationRequest(systemName)),
    }),
    params(id),
  );
  expect(response.status, await response.clone().text()).toBe(202);
  const score = await db.score.findUniqueOrThrow({ where: { submissionId: id }, select: { probeFlags: true } });
  const flags = (score.probeFlags as { flags?: { id: string; raised: boolean }[] } | null)?.flags ?? [];
  const acknowledge = flags.filter((flag) => flag.raised).map((flag) => flag.id);
  await reviewSubmission(sessionActor(maintainer), id, { action: "approve", acknowledge, reason: "Method described; checked by a maintainer." });
  publishedIds.push(id);
}

/** Keeps the hypotheses whose predicted shown numbers equal every shown number. */
function consistent<H>(hypotheses: readonly H[], shown: Shown, predict: (hypothesis: H) => Shown): H[] {
  return hypotheses.filter((hypothesis) => {
    const predicted = predict(hypothesis);
    return Object.entries(shown).every(([key, value]) => value === undefined || predicted[key] === undefined || predicted[key] === value);
  });
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importFullRelease(RELEASE_SEED);
  testSamples = release.content.samples.test;
  expect(testSamples).toHaveLength(4633);
  feedbackIds = new Set(testSamples.filter((sample) => isFeedback(sample.id)).map((sample) => sample.id));
  const known = new Set([...release.content.samples.train, ...release.content.samples.dev].map((sample) => sample.qid));
  testPool = release.content.entities.map((candidate) => candidate.qid).filter((qid) => !known.has(qid));
  entitiesNamed = new Map();
  for (const candidate of release.content.entities) {
    for (const text of new Set([norm(candidate.name), ...candidate.aliases.map(norm)])) entitiesNamed.set(text, (entitiesNamed.get(text) ?? 0) + 1);
  }
  maintainer = await createTestUser({ label: "slices-maintainer", role: "MAINTAINER", withoutPassword: true });
  baselineIds = (await runBaselines(release.releaseId)).map((result) => result.submissionId);
  worker = await startWorker({ WORKER_CONCURRENCY: "1", BOOTSTRAP_RESAMPLES: "200" }, { readyTimeoutMs: 120_000 });
  await waitForAllSettled(baselineIds, { timeoutMs: 300_000, workers: [worker] });
}, 600_000);

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

/** The measured outcome of one attack, printed for the record. */
function record(name: string, numbers: Record<string, number>): void {
  console.log(`[attack] ${name}: ${Object.entries(numbers).map(([key, value]) => `${key}=${value}`).join(" ")}`);
}

describe("[SLICES] the anchored probe on the owner's view", () => {
  /**
   * Two anchors (recovered feedback golds) put each of hit@1/3/5/10 and
   * alias_hit@1 at a rounding boundary of the feedback slice's n, every other
   * answer is known wrong, and the target's ranking lists the attacker's
   * candidates so that each metric tells a band of positions. The decoder
   * keeps every hypothesis (the gold is candidate X, or the target does not
   * count: wrong, or not in the numbers shown) whose predicted rounded numbers
   * equal the shown ones; a gold is recovered when only one candidate is left.
   */
  it("closed track: reads every feedback-slice target and no ranking-slice target", async () => {
    const feedbackSamples = testSamples.filter((sample) => feedbackIds.has(sample.id));
    const rankingSamples = testSamples.filter((sample) => !feedbackIds.has(sample.id));
    const anchors = feedbackSamples.slice(0, 3);
    const targets = [...feedbackSamples.slice(10, 14), ...rankingSamples.slice(10, 14)];
    let fileCount = 0;
    const recovered = { feedback: 0, ranking: 0, wrong: 0, files: 0 };
    for (const [index, target] of targets.entries()) {
      const candidates = candidatesFor(target, 10, index + 1);
      let hypotheses: Hypothesis[] = ["none", ...candidates];
      let arrangement = candidates;
      let anchorCount = 0;
      for (let round = 0; round < 3 && hypotheses.length > 1; round += 1) {
        fileCount += 1;
        // Fresh known-wrong padding in MIN_DIFFERENCE + 3 samples of the target's collection: the file moves by that many answers.
        const fresh = new Set(testSamples.filter((sample) => sample.collection === target.collection && sample.id !== target.id).slice(0, MIN_DIFFERENCE + 3).map((sample) => sample.id));
        const nShown = feedbackSamples.length; // the attacker reads it from the first file's n; asserted below
        // Anchors used: the first count A of 2 or 3 whose rounding moves at A -> A + 1.
        anchorCount = [2, 3].find((a) => roundRate(a / nShown) !== roundRate((a + 1) / nShown)) ?? 2;
        const used = new Set(anchors.slice(0, anchorCount).map((sample) => sample.id));
        const lines = testSamples.map((sample) => {
          if (sample.id === target.id) return JSON.stringify({ id: sample.id, ranking: arrangement });
          if (used.has(sample.id)) return JSON.stringify({ id: sample.id, ranking: [sample.qid, wrongFor(sample, 0)] });
          return closedPadding(sample, fresh.has(sample.id) ? fileCount : 0);
        });
        const file = await upload(lines);
        recovered.files += 1;
        ownerProbe ??= { id: file.id, token: file.owner.token, userId: file.owner.user.id };
        const shown = await ownerView(file.id, file.owner.token);
        expect(shown.n).toBe(nShown);
        const top = arrangement[0]!;
        const predict = (hypothesis: Hypothesis): Shown => {
          const rank = hypothesis === "none" ? 0 : arrangement.indexOf(hypothesis) + 1;
          const hit = (k: number) => roundRate((anchorCount + (rank > 0 && rank <= k ? 1 : 0)) / nShown);
          const isAliasHit = hypothesis !== "none" && aliasHit(top, hypothesis);
          return {
            "hit@1": hit(1),
            "hit@3": hit(3),
            "hit@5": hit(5),
            "hit@10": hit(10),
            mrr: roundRate((anchorCount + (rank > 0 ? 1 / rank : 0)) / nShown),
            "alias_hit@1": roundRate((anchorCount + (isAliasHit ? 1 : 0)) / nShown),
          };
        };
        hypotheses = consistent(hypotheses, shown.metrics, predict);
        // The next file puts the remaining candidates where the metrics tell them apart: positions 1, 2, 4 and 6.
        const remaining = hypotheses.filter((hypothesis): hypothesis is string => hypothesis !== "none");
        const fillers = [0, 1, 2, 3, 4, 5].map((k) => wrongFor(target, 5000 + round * 10, k)).filter((qid) => !candidates.includes(qid));
        arrangement = [remaining[0], fillers[0], remaining[1], fillers[1], remaining[2], fillers[2], remaining[3]].filter((qid): qid is string => qid !== undefined);
        arrangement = [...new Set(arrangement)];
      }
      if (hypotheses.length === 1 && hypotheses[0] !== "none") {
        if (hypotheses[0] !== target.qid) recovered.wrong += 1;
        else if (feedbackIds.has(target.id)) recovered.feedback += 1;
        else recovered.ranking += 1;
      }
    }
    record("anchored probe, closed, owner view", { ...recovered, accounts: accounts.length });
    expect(recovered).toMatchObject({ feedback: 4, ranking: 0, wrong: 0 });
  });

  it("open track: reads feedback-slice targets and no ranking-slice target", async () => {
    const feedbackSamples = testSamples.filter((sample) => feedbackIds.has(sample.id));
    const rankingSamples = testSamples.filter((sample) => !feedbackIds.has(sample.id));
    const anchors = feedbackSamples.slice(0, 3);
    const targets = [...feedbackSamples.slice(20, 22), ...rankingSamples.slice(20, 22)];
    const nShown = feedbackSamples.length;
    const anchorCount = [2, 3].find((a) => roundRate(a / nShown) !== roundRate((a + 1) / nShown)) ?? 2;
    const used = new Set(anchors.slice(0, anchorCount).map((sample) => sample.id));
    const recovered = { feedback: 0, ranking: 0, wrong: 0, files: 0 };
    for (const [index, target] of targets.entries()) {
      const candidates = candidatesFor(target, 3, 100 + index);
      let hypotheses: Hypothesis[] = ["none", ...candidates];
      for (const guess of candidates) {
        if (hypotheses.length <= 1) break;
        if (!hypotheses.includes(guess)) continue;
        recovered.files += 1;
        const fresh = new Set(testSamples.filter((sample) => sample.collection === target.collection && sample.id !== target.id).slice(0, MIN_DIFFERENCE + 3).map((sample) => sample.id));
        const generation = 700 + recovered.files;
        const lines = testSamples.map((sample) => {
          if (sample.id === target.id) return JSON.stringify({ id: sample.id, prediction: entity(guess).name });
          if (used.has(sample.id)) return JSON.stringify({ id: sample.id, prediction: entity(sample.qid).name });
          return openPadding(sample, fresh.has(sample.id) ? generation : 0);
        });
        const file = await upload(lines);
        const shown = await ownerView(file.id, file.owner.token);
        expect(shown.n).toBe(nShown);
        hypotheses = consistent(hypotheses, shown.metrics, (hypothesis) => {
          const tier = hypothesis === "none" ? null : tierOf(entity(guess).name, entity(hypothesis).name, entity(hypothesis).aliases);
          const at = (level: number) => roundRate((anchorCount + (tier !== null && tier <= level ? 1 : 0)) / nShown);
          return { exact: at(1), alias: at(2), contain: at(3), jaccard: at(4) };
        });
      }
      if (hypotheses.length === 1 && hypotheses[0] !== "none") {
        if (hypotheses[0] !== target.qid) recovered.wrong += 1;
        else if (feedbackIds.has(target.id)) recovered.feedback += 1;
        else recovered.ranking += 1;
      }
    }
    record("anchored probe, open, owner view", recovered);
    expect(recovered).toMatchObject({ feedback: 2, ranking: 0, wrong: 0 });
  });
});

/** How many of a file's answers count on the ranking slice, overall and per group, under one hypothesis. */
type PredictedCounts = { overall: number; byType: Map<string, number>; byCollection: Map<string, number> };

/** Whether a public score shows what `predicted` counts would show, under `rounding`. */
function isConsistentWithPublic(score: PublicScore, predicted: PredictedCounts, rounding: GroupRounding): boolean {
  // The ranking slice's size, as the public groups give it (a collection partition covers every sample).
  const n = Object.values(score.by_collection).reduce((sum, group) => sum + group.n, 0);
  const overallOk = Object.entries(score.metrics).every(([key, value]) => value === undefined || key === "mrr" || roundRate(predicted.overall / n) === value);
  const groupOk = (groups: Record<string, Group>, count: Map<string, number>) =>
    Object.entries(groups).every(([name, group]) =>
      Object.values(group.metrics).every((value) => value === undefined || value === null || roundGroup((count.get(name) ?? 0) / group.n, group.n, rounding) === value),
    );
  return overallOk && groupOk(score.by_type, predicted.byType) && groupOk(score.by_collection, predicted.byCollection);
}

/** The attacker's reading of published entries: every assignment of "this target counts" consistent with every public number. */
function decodePublished(
  targets: readonly { sample: Sample; guess: string }[],
  entries: readonly { score: PublicScore; counts: (assignment: readonly boolean[]) => PredictedCounts }[],
  rounding: GroupRounding,
): boolean[][] {
  const assignments: boolean[][] = [];
  for (let mask = 0; mask < 1 << targets.length; mask += 1) assignments.push(targets.map((_, i) => (mask & (1 << i)) !== 0));
  return assignments.filter((assignment) => entries.every(({ score, counts }) => isConsistentWithPublic(score, counts(assignment), rounding)));
}

/** Targets every consistent assignment counts: recovered golds. */
function certain(assignments: readonly boolean[][], count: number): number[] {
  return Array.from({ length: count }, (_, i) => i).filter((i) => assignments.length > 0 && assignments.every((assignment) => assignment[i]));
}

describe("[SLICES] probes through published entries (ranking slice)", () => {
  it("two published entries, one target per collection, filler swaps everywhere else", async () => {
    const owner = await account(true);
    const collections = [...new Set(testSamples.map((sample) => sample.collection))];
    const targets = collections.map((collection) => {
      const sample = testSamples.find((candidate) => candidate.collection === collection && !feedbackIds.has(candidate.id))!;
      return { sample, guess: sample.qid };
    });
    const targetIds = new Map(targets.map((target) => [target.sample.id, target]));
    // The first entry: every answer known wrong. The second: fresh known-wrong answers everywhere (so every collection and type
    // differs in far more than min_group_n samples) and the guess first on each target.
    const first = await upload(testSamples.map((sample) => closedPadding(sample, 500)), owner);
    const second = await upload(
      testSamples.map((sample) => (targetIds.has(sample.id) ? JSON.stringify({ id: sample.id, ranking: [targetIds.get(sample.id)!.guess, wrongFor(sample, 501)] }) : closedPadding(sample, 501))),
      owner,
    );
    await publish(first.id, owner.token, "Probe Ranker A");
    await publish(second.id, owner.token, "Probe Ranker B");
    const [shownFirst, shownSecond] = [await publicView(first.id), await publicView(second.id)];
    const counts = (isProbed: boolean) => (assignment: readonly boolean[]) => {
      const byType = new Map<string, number>();
      const byCollection = new Map<string, number>();
      let overall = 0;
      targets.forEach((target, i) => {
        if (!isProbed || !assignment[i]) return;
        overall += 1;
        const type = entity(target.guess).type;
        byType.set(type, (byType.get(type) ?? 0) + 1);
        byCollection.set(target.sample.collection, (byCollection.get(target.sample.collection) ?? 0) + 1);
      });
      return { overall, byType, byCollection };
    };
    const left = decodePublished(
      targets,
      [
        { score: shownFirst, counts: counts(false) },
        { score: shownSecond, counts: counts(true) },
      ],
      PLATFORM_ROUNDING,
    );
    const read = certain(left, targets.length);
    const wrong = read.filter((i) => targets[i]!.guess !== targets[i]!.sample.qid).length;
    record("two published entries, closed", { targets: targets.length, rankingGoldsRecovered: read.length, wrong, consistentAssignments: left.length, submissions: 2 });
    expect(wrong).toBe(0);
    // Positive control, same files, same decoder: fed what section 12's floor would show of the two entries (from their
    // unrounded ranking-slice reports), it reads the targets of the collections the platform's policy hides. Without
    // it a decoder that kept every assignment would pass the 0 below.
    const floorLeft = decodePublished(
      targets,
      [
        { score: floorView(await rankingReport(first.id)), counts: counts(false) },
        { score: floorView(await rankingReport(second.id)), counts: counts(true) },
      ],
      FLOOR_ROUNDING,
    );
    const floorRead = certain(floorLeft, targets.length);
    record("two published entries, closed, under section 12's floor (control)", { rankingGoldsRecovered: floorRead.length, consistentAssignments: floorLeft.length });
    console.log(`[attack] under the floor, read through the per-collection / per-type rates of: ${floorRead.map((i) => targets[i]!.sample.collection).join(", ")}`);
    expect(floorRead.filter((i) => targets[i]!.guess !== targets[i]!.sample.qid)).toEqual([]);
    expect(floorRead.length).toBeGreaterThanOrEqual(EXPECTED_PUBLISHED_PAIR_RECOVERED_UNDER_FLOOR);
    // Since v1.3 the platform shows those collections' numbers (section 12's floor), from perturbed counts: the same
    // decoder, fed what the platform shows, reads none of the targets it read from the exact counts.
    expect(read.filter((i) => floorRead.includes(i))).toEqual([]);
    expect(read.length).toBe(EXPECTED_PUBLISHED_PAIR_RECOVERED);
  });

  it("cross-track: an open and a closed entry sharing their padding but for fresh answers of their own, one probe sample", async () => {
    const owner = await account(true);
    const collectionSizes = new Map<string, number>();
    for (const sample of testSamples) collectionSizes.set(sample.collection, (collectionSizes.get(sample.collection) ?? 0) + 1);
    const bySize = [...collectionSizes].sort((a, b) => a[1] - b[1]).map(([collection]) => collection);
    // The attacker's best aim: the smallest collection (test.jsonl names every sample's collection).
    const smallest = bySize[0]!;
    const probe = testSamples.find((sample) => sample.collection === smallest && !feedbackIds.has(sample.id))!;
    const probeType = entity(probe.qid).type;
    // Fresh answers: each file its own known-wrong answers on max(25, 1%) samples or more; elsewhere both files give the
    // same known-wrong answer. The publication guard wants the files apart in 47 ranking-slice samples and in 30 within
    // each collection and type where they differ at all; an attacker who cannot see membership covers whole collections,
    // smallest first, so each holds enough ranking samples (about three quarters of it), and names entities of the probe
    // guess's type only, so no other type differs.
    const freshCollections: string[] = [];
    let freshCount = 0;
    for (const collection of bySize) {
      if (freshCount >= 2 * MIN_DIFFERENCE) break;
      freshCollections.push(collection);
      freshCount += (collectionSizes.get(collection) ?? 0) - (collection === smallest ? 1 : 0);
    }
    const freshSamples = testSamples.filter((sample) => freshCollections.includes(sample.collection) && sample.id !== probe.id);
    const freshOf = new Map(freshSamples.map((sample, index) => [sample.id, index % 2 === 0 ? "open" : "closed"]));
    const isShared = (sample: Sample) => sample.id === probe.id || freshOf.has(sample.id);
    // In and around the fresh samples every answer names one entity of the probe's type; elsewhere the shared padding as before.
    const sharedAnswer = (sample: Sample) => (isShared(sample) ? wrongOfType(sample, 610, probeType) : wrongFor(sample, 600));
    const freshAnswer = (sample: Sample) => wrongOfType(sample, 611, probeType);
    const answerOf = (sample: Sample, track: "open" | "closed") => (freshOf.get(sample.id) === track ? freshAnswer(sample) : sharedAnswer(sample));
    const open = await upload(testSamples.map((sample) => JSON.stringify({ id: sample.id, prediction: entity(answerOf(sample, "open")).name })), owner);
    // A closed ranking: its top, then a known-wrong second entity (places below the top do not matter to the unified view).
    const rankingOf = (sample: Sample, top: string) => {
      let second = wrongFor(sample, 601);
      for (let k = 1; second === top; k += 1) second = wrongFor(sample, 601, k);
      return JSON.stringify({ id: sample.id, ranking: [top, second] });
    };
    const closed = await upload(testSamples.map((sample) => rankingOf(sample, sample.id === probe.id ? probe.qid : answerOf(sample, "closed"))), owner);
    expect(freshOf.size).toBeGreaterThanOrEqual(2 * MIN_DIFFERENCE);
    // What the owner was shown before publication: each file's feedback-slice numbers.
    const [ownerOpen, ownerClosed] = [await ownerView(open.id, owner.token), await ownerView(closed.id, owner.token)];
    await publish(open.id, owner.token, "Probe Reader Open");
    await publish(closed.id, owner.token, "Probe Reader Closed");

    // Hypotheses: the guess is wrong; right, with the probe in the feedback slice; right, in the ranking slice.
    type Where = "wrong" | "feedback" | "ranking";
    const hypotheses: Where[] = ["wrong", "feedback", "ranking"];
    const ownerPredicts = (where: Where, track: "open" | "closed"): Shown => {
      const count = track === "closed" && where === "feedback" ? 1 : 0;
      const keys = track === "open" ? ["exact", "alias", "contain", "jaccard"] : ["hit@1", "hit@3", "hit@5", "hit@10", "mrr", "alias_hit@1"];
      return Object.fromEntries(keys.map((key) => [key, roundRate(count / ownerClosed.n)]));
    };
    const publicCounts = (where: Where, isProbed: boolean): PredictedCounts => {
      const on = isProbed && where === "ranking";
      return { overall: on ? 1 : 0, byType: new Map(on ? [[probeType, 1]] : []), byCollection: new Map(on ? [[probe.collection, 1]] : []) };
    };
    const decode = (scores: { open: PublicScore; closed: PublicScore }, rounding: GroupRounding) => {
      const left = hypotheses
        .filter((where) => consistent([where], ownerOpen.metrics, (hypothesis) => ownerPredicts(hypothesis, "open")).length === 1)
        .filter((where) => consistent([where], ownerClosed.metrics, (hypothesis) => ownerPredicts(hypothesis, "closed")).length === 1)
        .filter((where) => isConsistentWithPublic(scores.open, publicCounts(where, false), rounding) && isConsistentWithPublic(scores.closed, publicCounts(where, true), rounding));
      // The gold is read when every hypothesis left says the guess is right (in whichever slice).
      return { left, read: left.length > 0 && left.every((where) => where !== "wrong") ? 1 : 0 };
    };
    const shown = { open: await publicView(open.id), closed: await publicView(closed.id) };
    const platform = decode(shown, PLATFORM_ROUNDING);
    // Positive control: the same decoder on what section 12's floor would show of the same two entries.
    const floor = decode({ open: floorView(await rankingReport(open.id)), closed: floorView(await rankingReport(closed.id)) }, FLOOR_ROUNDING);
    record("cross-track published pair", {
      rankingGoldsRecovered: platform.read,
      consistentHypotheses: platform.left.length,
      underFloorRecovered: floor.read,
      submissions: 2,
      freshPerFile: Math.floor(freshOf.size / 2),
      collectionRankingN: shown.closed.by_collection[smallest]?.n ?? -1,
    });
    // The owner's numbers rule out the feedback slice (the probe is in the ranking slice): what is left is wrong vs ranking.
    expect(platform.left).not.toContain("feedback");
    expect(floor.read).toBe(1);
    expect(platform.read).toBe(EXPECTED_CROSS_TRACK_RECOVERED);
  });
});

/**
 * Ranking-slice golds read with certainty. Under section 12's floor alone (groups below 30 hidden, 1-point rates
 * below 1,000 samples) the pair read 8 of 11 and the cross-track pair 1 of 1; the platform's policy for a protected
 * release (groups of 200 ranking samples or fewer hidden, 1-point rates below 2,000) lets no single sample move a
 * group number from a known count of zero.
 */
const EXPECTED_PUBLISHED_PAIR_RECOVERED = 0;
const EXPECTED_PUBLISHED_PAIR_RECOVERED_UNDER_FLOOR = 1;
const EXPECTED_CROSS_TRACK_RECOVERED = 0;

describe("[SLICES] public and owner numbers are the slices' reports", () => {
  it("every public number of a published entry is the ranking slice's offline report, perturbed and rounded as section 12 says; the owner's the feedback slice's", async () => {
    // Protocol v1.3: every public number is the ranking report perturbed (computed independently) and rounded; groups below min_group_n show n only.
    await fidelityChecks({ release, feedbackIds, publishedIds: [...publishedIds, ...baselineIds], ownerProbe, minGroupN: MIN_GROUP_N });
  });

  it("a crawl of every API route and export as every kind of user finds no slice membership and no number finer than section 12 allows", async () => {
    await crawlAsEveryone({ release, feedbackIds, publishedIds, ownerProbe, maintainer });
  });
});
