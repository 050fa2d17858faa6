import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getEntryRoute } from "@/app/api/entries/[id]/route";
import { GET as getSubmissionRoute } from "@/app/api/submissions/[id]/route";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import type { Sample } from "@/lib/core/dataset/release-schema";
import { requestPublication } from "@/lib/domain/publication/request-publication";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestServices } from "@/testing/local-database";
import { publicationRequest } from "@/testing/publication-request";
import { caught } from "./support/errors";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { readStoredText } from "./support/stored-files";
import { submitLines } from "./support/uploads";
import { waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Protocol section 12, tried as an attacker would: each attack below reads
 * only what the owner's API (GET /api/submissions/ID with an API token) and
 * the public API (GET /api/entries/ID) answer, against the real worker, on a
 * release whose groups are small (three collections of 1, 2 and 3 test
 * samples). Each recovers no test gold. Every attack is also run on the
 * maintainer's unrounded view, where it does recover golds: the attacks are
 * real, and it is the disclosure rules that stop them.
 */

type Group = { n: number; suppressed?: boolean; isSuppressed?: boolean; metrics: Record<string, number | null | undefined> };
type ReportLike = { n: number; metrics: Record<string, number | undefined>; by_type: Record<string, Group> | null; by_collection: Record<string, Group> | null };

const TINY_COLLECTIONS = ["Tiny One", "Tiny Two", "Tiny Two", "Tiny Three", "Tiny Three", "Tiny Three"];

let release: TestRelease;
let attacker: TestUser;
let maintainer: TestUser;
let token = "";
let worker: WorkerProcess | undefined;
let baselineIds: string[] = [];
let testSamples: Sample[] = [];
let trainQids: string[] = [];
let candidatePool: string[] = [];

/** A release with small groups: six test samples moved into three tiny collections. */
async function importReleaseWithTinyGroups(): Promise<TestRelease> {
  return importSmallRelease(23, (content) => {
    content.meta.name = "irc-bench-attack";
    TINY_COLLECTIONS.forEach((collection, index) => {
      const sample = content.samples.test[index * 17];
      if (sample) sample.collection = collection;
    });
  });
}

function request(path: string): Request {
  return new Request(`http://127.0.0.1${path}`, { headers: { authorization: `Bearer ${token}` } });
}

const params = (id: string) => ({ params: Promise.resolve({ id }) });

/** What the owner's API answers for a submission: the score report as JSON. */
async function ownerReport(id: string): Promise<{ report: ReportLike | null; body: string }> {
  const response = await getSubmissionRoute(request(`/api/submissions/${id}`), params(id));
  expect(response.status).toBe(200);
  const body = await response.text();
  const view = JSON.parse(body) as { score: { report: ReportLike } | null };
  return { report: view.score?.report ?? null, body };
}

/** What the public API answers for an entry (404 for anything not public). */
async function publicReport(id: string): Promise<{ status: number; report: ReportLike | null }> {
  const response = await getEntryRoute(new Request(`http://127.0.0.1/api/entries/${id}`), params(id));
  if (response.status !== 200) return { status: response.status, report: null };
  const body = (await response.json()) as { score: ReportLike | null };
  return { status: 200, report: body.score };
}

/** The maintainer's unrounded view: the stored report itself. */
async function storedReport(id: string): Promise<ReportLike> {
  const score = await db.score.findUniqueOrThrow({ where: { submissionId: id } });
  return score.report as unknown as ReportLike;
}

function goldOf(sampleId: string): string {
  const sample = testSamples.find((candidate) => candidate.id === sampleId);
  if (!sample) throw new Error(`no test sample ${sampleId}`);
  return sample.qid;
}

/** A seeded shuffle, so the gold's place among the candidates is arbitrary but reproducible. */
function shuffled<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  let state = seed >>> 0;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** 100 candidates that hold the gold somewhere (what an attacker's guess list at best does). */
function candidatesFor(sample: Sample, seed: number): string[] {
  const others = candidatePool.filter((qid) => qid !== sample.qid).slice(0, 99);
  return shuffled([...others, sample.qid], seed);
}

type Probe = { sampleId: string; group: string; ranking: string[] };

/**
 * The probe file: every line ranks one filler entity that is not its sample's
 * gold, except one probe sample per group, whose ranking holds 100
 * candidates. A group's MRR is then 1 / (rank * n), which names the gold.
 */
function probeFile(groupOf: (sample: Sample) => string, fillerOf: (sample: Sample) => string, seed: number): { lines: string[]; probes: Probe[] } {
  const probes = new Map<string, Probe>();
  for (const sample of testSamples) {
    const group = groupOf(sample);
    if (!probes.has(group)) probes.set(group, { sampleId: sample.id, group, ranking: candidatesFor(sample, seed + probes.size) });
  }
  const bySample = new Map([...probes.values()].map((probe) => [probe.sampleId, probe]));
  const lines = testSamples.map((sample) => JSON.stringify({ id: sample.id, ranking: bySample.get(sample.id)?.ranking ?? [fillerOf(sample)] }));
  return { lines, probes: [...probes.values()] };
}

/** The attacker's reading: rank = 1 / (MRR * n) in each group that shows an MRR. */
function readProbes(groups: Record<string, Group> | null | undefined, probes: readonly Probe[]): number {
  let recovered = 0;
  for (const probe of probes) {
    const group = groups?.[probe.group];
    const mrr = group?.metrics.mrr;
    if (group === undefined || typeof mrr !== "number" || mrr <= 0) continue;
    const rank = Math.round(1 / (mrr * group.n));
    if (probe.ranking[rank - 1] === goldOf(probe.sampleId)) recovered += 1;
  }
  return recovered;
}

const entityTypeOf = (sample: Sample): string => release.entityByQid.get(sample.qid)?.type ?? "Other";

async function submitAndScore(lines: readonly string[]): Promise<string> {
  const submission = await submitLines(lines, { userId: attacker.id, declaredSplit: "test" });
  await waitForAllSettled([submission.id], { timeoutMs: 60_000, workers: worker ? [worker] : [] });
  return submission.id;
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importReleaseWithTinyGroups();
  [attacker, maintainer] = [await createTestUser({ label: "attacker", withoutPassword: true }), await createTestUser({ label: "attack-maintainer", role: "MAINTAINER", withoutPassword: true })];
  await db.user.updateMany({ where: { id: { in: [attacker.id, maintainer.id] } }, data: { approvedAt: new Date() } });
  token = (await createApiToken({ actor: sessionActor(attacker), name: "attack" })).token;
  testSamples = release.content.samples.test;
  const knownQids = new Set([...release.content.samples.train, ...release.content.samples.dev].map((sample) => sample.qid));
  trainQids = [...new Set(release.content.samples.train.map((sample) => sample.qid))];
  // Test gold is never train or dev gold (entity-level splits): the attacker's candidates are the rest of the KB.
  candidatePool = release.content.entities.map((entity) => entity.qid).filter((qid) => !knownQids.has(qid));
  baselineIds = (await runBaselines(release.releaseId)).map((result) => result.submissionId);
  worker = await startWorker({ WORKER_CONCURRENCY: "2" });
  await waitForAllSettled(baselineIds, { timeoutMs: 120_000, workers: [worker] });
}, 240_000);

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("[INTEGRITY] probe attacks on the owner's view", () => {
  it("the per-collection MRR probe recovers no gold (it recovers every probed gold from the unrounded report)", async () => {
    // A train-split entity: never test gold.
    const { lines, probes } = probeFile((sample) => sample.collection, () => trainQids[0]!, 101);
    const id = await submitAndScore(lines);
    const { report, body } = await ownerReport(id);
    expect(report?.by_collection).toBeNull();
    expect(readProbes(report?.by_collection, probes)).toBe(0);
    // Nothing in the owner's answer names a test gold.
    const goldQids = new Set(testSamples.map((sample) => sample.qid));
    expect((body.match(/Q\d+/g) ?? []).filter((qid) => goldQids.has(qid))).toEqual([]);
    expect(body).not.toMatch(/gold_?[sS]ha256/);
    expect(readProbes((await storedReport(id)).by_collection, probes)).toBe(probes.length);
    // The probe is not public, so the public API knows nothing of it.
    expect((await publicReport(id)).status).toBe(404);
  });

  it("the per-type probe recovers no gold", async () => {
    // Fillers that could score (test candidates, each not its sample's gold): a file of its own, not a copy of the first.
    const { lines, probes } = probeFile(entityTypeOf, (sample) => candidatesFor(sample, 0).find((qid) => qid !== sample.qid)!, 202);
    const id = await submitAndScore(lines);
    const { report } = await ownerReport(id);
    expect(report?.by_type).toBeNull();
    expect(readProbes(report?.by_type, probes)).toBe(0);
    expect(readProbes((await storedReport(id)).by_type, probes)).toBe(probes.length);
    // The owner still sees rounded overall numbers: 3 decimals.
    for (const value of Object.values(report?.metrics ?? {})) expect(Number((value ?? 0).toFixed(3))).toBe(value);
  });
});

describe("[INTEGRITY] differencing", () => {
  it("a pair of test files one answer apart cannot both be published, so no public difference of their scores reads that answer", async () => {
    const base = predictionLines(release, "test", "open", 0.3, 303);
    const first = await submitLines(base, { userId: attacker.id, declaredSplit: "test" });
    // A sample the first file gets wrong, answered with its gold name in the second.
    const index = testSamples.findIndex((sample, at) => (JSON.parse(base[at]!) as { prediction: string }).prediction !== release.entityByQid.get(sample.qid)?.name);
    const probeSample = testSamples[index]!;
    const probed = [...base];
    probed[index] = JSON.stringify({ id: probeSample.id, prediction: release.entityByQid.get(probeSample.qid)?.name ?? "" });
    // Accepted at upload: only a byte-identical file is refused there (protocol §12).
    const second = await submitLines(probed, { userId: attacker.id, declaredSplit: "test" });
    await waitForAllSettled([first.id, second.id], { timeoutMs: 60_000, workers: worker ? [worker] : [] });

    await requestPublication(sessionActor(attacker), first.id, publicationRequest("Attack first"));
    const refusal = await caught(() => requestPublication(sessionActor(attacker), second.id, publicationRequest("Attack second")));
    expect(refusal.code).toBe("validation");
    expect(refusal.message).toContain(`too close to your entry "Attack first" (${first.id}`);
    expect(refusal.message).not.toContain(probeSample.id);
    // The second stays private: nothing public can be set beside the first's numbers.
    expect((await db.submission.findUniqueOrThrow({ where: { id: second.id } })).publication).toBe("PRIVATE");
    expect((await publicReport(second.id)).status).toBe(404);
  });
});

describe("[INTEGRITY] reproducible baselines", () => {
  type Known = Map<string, boolean>;

  /**
   * The attacker reruns a public baseline (its files are reproducible; here
   * read from the store), then solves the group counts it publishes: in each
   * group whose members the attacker knows (a collection: test.jsonl names
   * it), count = round(rate * n) samples are right at rank 1. Where the count
   * leaves no choice, each right sample's top entity is its gold; a group of
   * one with an MRR gives the gold's rank outright.
   */
  async function searchBaseline(id: string, report: ReportLike | null): Promise<number> {
    if (report === null) return 0;
    const submission = await db.submission.findUniqueOrThrow({ where: { id } });
    const lines = (await readStoredText(submission.fileSha256)).split("\n").filter((line) => line.trim() !== "");
    const answers = new Map(
      lines.map((line) => {
        const parsed = JSON.parse(line) as { id: string; ranking?: string[]; prediction?: string };
        const ranking = parsed.ranking ?? release.content.entities.filter((entity) => entity.name === parsed.prediction).map((entity) => entity.qid);
        return [parsed.id, ranking] as const;
      }),
    );
    const key = submission.track === "closed" ? "hit@1" : "exact";
    const groups: { members: string[]; right: number }[] = [];
    const addGroup = (members: string[], group: Group | undefined) => {
      const rate = group?.metrics[key];
      if (group === undefined || typeof rate !== "number") return;
      groups.push({ members, right: Math.round(rate * group.n) });
    };
    addGroup(testSamples.map((sample) => sample.id), { n: report.n, metrics: report.metrics });
    const guesses = new Map<string, string>();
    for (const [collection, group] of Object.entries(report.by_collection ?? {})) {
      const members = testSamples.filter((sample) => sample.collection === collection).map((sample) => sample.id);
      addGroup(members, group);
      const mrr = group.metrics.mrr;
      if (members.length === 1 && typeof mrr === "number" && mrr > 0) {
        const guess = answers.get(members[0]!)?.[Math.round(1 / mrr) - 1];
        if (guess) guesses.set(members[0]!, guess);
      }
    }
    const known: Known = new Map();
    for (let changed = true; changed; ) {
      changed = false;
      for (const group of groups) {
        const unknown = group.members.filter((member) => !known.has(member));
        const right = group.members.filter((member) => known.get(member) === true).length;
        if (unknown.length === 0) continue;
        const verdict = group.right - right === unknown.length ? true : group.right === right ? false : undefined;
        if (verdict === undefined) continue;
        for (const member of unknown) known.set(member, verdict);
        changed = true;
      }
    }
    for (const [member, isRight] of known) {
      const top = answers.get(member)?.[0];
      if (isRight && top) guesses.set(member, top);
    }
    return [...guesses].filter(([member, qid]) => goldOf(member) === qid).length;
  }

  it("searching the public baselines' small groups recovers no gold (it does recover golds from the unrounded reports)", async () => {
    const testBaselines = await db.submission.findMany({ where: { id: { in: baselineIds }, split: "test" }, select: { id: true } });
    expect(testBaselines.length).toBeGreaterThan(0);
    let fromPublic = 0;
    let fromStored = 0;
    for (const { id } of testBaselines) {
      const { status, report } = await publicReport(id);
      expect(status).toBe(200);
      // Every tiny collection shows its size only (one whose samples' entities all fell in the feedback slice is not listed).
      const tiny = ["Tiny One", "Tiny Two", "Tiny Three"].filter((name) => report?.by_collection?.[name] !== undefined);
      expect(tiny.length).toBeGreaterThan(0);
      for (const name of tiny) expect(report?.by_collection?.[name]).toMatchObject({ suppressed: true, metrics: {} });
      for (const group of Object.values(report?.by_type ?? {})) expect(group.metrics).not.toHaveProperty("mrr");
      fromPublic += await searchBaseline(id, report);
      fromStored += await searchBaseline(id, await storedReport(id));
    }
    expect(fromPublic).toBe(0);
    expect(fromStored).toBeGreaterThan(0);
  });
});
