import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runBaselines } from "@/lib/domain/scoring/run-baselines";
import type { Entity, Sample } from "@/lib/core/dataset/release-schema";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { getSamplePage as getSampleOutcomes } from "@/lib/domain/submissions/get-sample-page";
import { sampleQuerySchema as sampleOutcomeQuerySchema, type SampleRow as SampleOutcomeRow } from "@/lib/core/submissions/sample-schemas";
import { getSubmissionView } from "@/lib/domain/submissions/get-submission-view";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { caught } from "./support/errors";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitForAllSettled } from "./support/wait";
import { startWorker, type WorkerProcess } from "./support/workers";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Protocol section 3: the test gold (QIDs and anything derived from them,
 * per-sample correctness included) never reaches a participant, nor a
 * maintainer's view of a submission. Dev submissions get per-sample feedback
 * with the (public) dev gold.
 */
let release: TestRelease;
let owner: TestUser;
let maintainer: TestUser;
let stranger: TestUser;
let worker: WorkerProcess | undefined;
let testSubmissionIds: string[] = [];
let devOpenId = "";
let devClosedId = "";

const ALL = sampleOutcomeQuerySchema.parse({ pageSize: 500 });

/** norm() of protocol section 5, written out here rather than imported from the scorer. */
function norm(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim().replace(/\s+/gu, " ");
}

function tokensOf(text: string): Set<string> {
  return new Set(norm(text).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []);
}

type Picked = { sample: Sample; entity: Entity; prediction: string; tier: number | null; isRight: boolean };

function entityOf(sample: Sample): Entity {
  const entity = release.entityByQid.get(sample.qid);
  if (!entity) throw new Error(`no entity ${sample.qid}`);
  return entity;
}

function isAliasOf(entity: Entity, text: string): boolean {
  return entity.aliases.some((alias) => norm(alias) === norm(text));
}

/** Hand-picked dev samples, one per open-world tier (section 6), with the answer each should get. */
function pickOpenSamples(samples: readonly Sample[]): Picked[] {
  const used = new Set<string>();
  const pick = (label: string, make: (sample: Sample, entity: Entity) => string | undefined, tier: number | null, isRight: boolean): Picked => {
    for (const sample of samples) {
      if (used.has(sample.id)) continue;
      const entity = entityOf(sample);
      const prediction = make(sample, entity);
      if (prediction === undefined) continue;
      used.add(sample.id);
      return { sample, entity, prediction, tier, isRight };
    }
    throw new Error(`no dev sample fits the ${label} case`);
  };
  return [
    pick("alias", (_, entity) => entity.aliases.find((alias) => norm(alias) !== norm(entity.name)), 2, true),
    pick(
      "containment",
      (_, entity) => {
        const prediction = `old ${entity.name}`;
        return isAliasOf(entity, prediction) ? undefined : prediction;
      },
      3,
      false,
    ),
    pick(
      "jaccard",
      (_, entity) => {
        const words = entity.name.split(" ");
        if (words.length !== 2) return undefined;
        const prediction = `${words[1]} ${words[0]}`;
        const [p, g] = [norm(prediction), norm(entity.name)];
        if (p.includes(g) || g.includes(p) || isAliasOf(entity, prediction)) return undefined;
        return prediction;
      },
      4,
      false,
    ),
    pick("empty", () => "", null, false),
    pick(
      "wrong",
      (_, entity) => {
        const goldTokens = tokensOf(entity.name);
        const other = release.content.entities.find(
          (candidate) =>
            candidate.qid !== entity.qid &&
            [...tokensOf(candidate.name)].every((token) => !goldTokens.has(token)) &&
            !isAliasOf(entity, candidate.name),
        );
        return other?.name;
      },
      null,
      false,
    ),
  ];
}

let openPicks: Picked[] = [];
const closedPicks = new Map<string, { ranking: string[]; rank: number | null }>();

function otherQids(sample: Sample, count: number): string[] {
  return release.content.entities
    .filter((entity) => entity.qid !== sample.qid)
    .slice(0, count)
    .map((entity) => entity.qid);
}

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  [owner, maintainer, stranger] = [await createTestUser({ label: "gold-owner", withoutPassword: true }), await createTestUser({ label: "gold-maintainer", role: "MAINTAINER", withoutPassword: true }), await createTestUser({ label: "gold-stranger", withoutPassword: true })];
  const baselineIds = (await runBaselines(release.releaseId)).map((result) => result.submissionId);

  const testOpen = await submitLines(predictionLines(release, "test", "open", 0.5, 61), { userId: owner.id });
  const testClosed = await submitLines(predictionLines(release, "test", "closed", 0.5, 62), { userId: owner.id });
  testSubmissionIds = [testOpen.id, testClosed.id];

  const devSamples = release.content.samples.dev;
  openPicks = pickOpenSamples(devSamples);
  const openById = new Map(openPicks.map((picked) => [picked.sample.id, picked.prediction]));
  const openLines = devSamples.map((sample) => JSON.stringify({ id: sample.id, prediction: openById.get(sample.id) ?? entityOf(sample).name }));
  devOpenId = (await submitLines(openLines, { userId: owner.id })).id;

  // Closed track: gold at rank 3 for one sample, absent for another, first for the rest.
  const [third, absent] = [devSamples[5], devSamples[6]];
  if (!third || !absent) throw new Error("the dev split is too small");
  closedPicks.set(third.id, { ranking: [...otherQids(third, 2), third.qid, ...otherQids(third, 5).slice(2)], rank: 3 });
  closedPicks.set(absent.id, { ranking: otherQids(absent, 4), rank: null });
  const closedLines = devSamples.map((sample) => JSON.stringify({ id: sample.id, ranking: closedPicks.get(sample.id)?.ranking ?? [sample.qid, ...otherQids(sample, 2)] }));
  devClosedId = (await submitLines(closedLines, { userId: owner.id })).id;

  worker = await startWorker({ WORKER_CONCURRENCY: "2" });
  await waitForAllSettled([...baselineIds, ...testSubmissionIds, devOpenId, devClosedId], { timeoutMs: 100_000, workers: [worker] });
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

describe("test submissions: the gold stays hidden", () => {
  it("getSampleOutcomes is not_found for the owner, a maintainer and anyone else", async () => {
    for (const id of testSubmissionIds) {
      for (const user of [owner, maintainer, stranger]) {
        const error = await caught(() => getSampleOutcomes(sessionActor(user), id, ALL));
        expect(error.code, `${user.email} on ${id}`).toBe("not_found");
      }
    }
  });

  it("the submission view (owner's and maintainer's) contains no test gold QID and no test sample id", async () => {
    const testSamples = release.content.samples.test;
    const goldQids = new Set(testSamples.map((sample) => sample.qid));
    for (const id of testSubmissionIds) {
      for (const user of [owner, maintainer]) {
        const view = await getSubmissionView(sessionActor(user), id);
        expect(view.status).toBe("SCORED");
        expect(view.hasSampleOutcomes).toBe(false);
        // Every baseline in the unified family; the same-track ones in the track family too (section 9).
        expect(view.comparisons.filter((comparison) => comparison.family === "unified")).toHaveLength(4);
        expect(view.comparisons.filter((comparison) => comparison.family === "track")).toHaveLength(view.track === "open" ? 1 : 3);
        // Section 12: the owner of an unpublished test file gets verdicts, a maintainer the counts.
        expect(view.comparisons.every((comparison) => comparison.kind === (user === owner ? "verdict" : "detail"))).toBe(true);
        const json = JSON.stringify(view);
        const leakedQids = (json.match(/Q\d+/g) ?? []).filter((qid) => goldQids.has(qid));
        expect(leakedQids).toEqual([]);
        const leakedIds = testSamples.filter((sample) => json.includes(`"${sample.id}"`)).map((sample) => sample.id);
        expect(leakedIds).toEqual([]);
        // Aggregates only: the report has no per-sample part.
        expect(Object.keys(view.score?.report ?? {}).sort()).toEqual(["by_collection", "by_type", "ci95", "disclosure", "metrics", "n", "scorer_version", "split", "track"]);
      }
      expect((await caught(() => getSubmissionView(sessionActor(stranger), id))).code).toBe("not_found");
    }
  });

  it("the same check does find the dev gold in dev feedback (the check itself works)", async () => {
    const page = await getSampleOutcomes(sessionActor(owner), devOpenId, ALL);
    const json = JSON.stringify(page);
    for (const sample of release.content.samples.dev) expect(json).toContain(sample.qid);
  });
});

describe("dev submissions: per-sample feedback with the gold", () => {
  function rowOf(rows: readonly SampleOutcomeRow[], id: string): SampleOutcomeRow {
    const row = rows.find((candidate) => candidate.id === id);
    if (!row) throw new Error(`no outcome row for ${id}`);
    return row;
  }

  it("open track: each hand-picked sample gets its tier, and everything else is exact", async () => {
    const page = await getSampleOutcomes(sessionActor(owner), devOpenId, ALL);
    const devSamples = release.content.samples.dev;
    expect(page.total).toBe(devSamples.length);
    expect(page.rows.map((row) => row.id)).toEqual(devSamples.map((sample) => sample.id));
    for (const picked of openPicks) {
      const row = rowOf(page.rows, picked.sample.id);
      expect(row, picked.sample.id).toMatchObject({
        id: picked.sample.id,
        narrative: picked.sample.implicit_text,
        prediction: picked.prediction,
        top: null,
        gold: { qid: picked.entity.qid, name: picked.entity.name, type: picked.entity.type, aliases: picked.entity.aliases, description: picked.entity.description },
        tier: picked.tier,
        rank: null,
        isAliasHitAt1: false,
        isRight: picked.isRight,
      });
    }
    const pickedIds = new Set(openPicks.map((picked) => picked.sample.id));
    for (const row of page.rows.filter((candidate) => !pickedIds.has(candidate.id))) {
      expect(row.tier).toBe(1);
      expect(row.isRight).toBe(true);
    }
    const wrong = await getSampleOutcomes(sessionActor(owner), devOpenId, sampleOutcomeQuerySchema.parse({ outcome: "wrong", pageSize: 500 }));
    expect(wrong.rows.map((row) => row.id).sort()).toEqual(openPicks.filter((picked) => !picked.isRight).map((picked) => picked.sample.id).sort());
    const secondPage = await getSampleOutcomes(sessionActor(owner), devOpenId, sampleOutcomeQuerySchema.parse({ page: 2, pageSize: 100 }));
    expect(secondPage.rows).toHaveLength(devSamples.length - 100);
    expect(secondPage.rows[0]?.id).toBe(devSamples[100]?.id);
  });

  it("closed track: rank 3, no rank, and rank 1 elsewhere; a maintainer sees the same, a stranger nothing", async () => {
    const page = await getSampleOutcomes(sessionActor(maintainer), devClosedId, ALL);
    for (const [id, picked] of closedPicks) {
      const row = rowOf(page.rows, id);
      expect(row.rank).toBe(picked.rank);
      expect(row.tier).toBeNull();
      expect(row.isRight).toBe(false);
      expect(row.top?.map((entity) => entity.qid)).toEqual(picked.ranking.slice(0, 5));
      expect(row.prediction).toBeNull();
      expect(row.gold.qid).toBe(release.content.samples.dev.find((sample) => sample.id === id)?.qid);
    }
    for (const row of page.rows.filter((candidate) => !closedPicks.has(candidate.id))) {
      expect(row.rank).toBe(1);
      expect(row.isRight).toBe(true);
      expect(row.isAliasHitAt1).toBe(true);
    }
    expect((await caught(() => getSampleOutcomes(sessionActor(stranger), devClosedId, ALL))).code).toBe("not_found");
  });
});
