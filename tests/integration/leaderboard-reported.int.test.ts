import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as getLeaderboardApi } from "@/app/api/leaderboard/route";
import { db } from "@/lib/platform/db";
import { setLeaderboardStampTtl } from "@/lib/domain/leaderboard/get-leaderboard";
import { AppError } from "@/lib/core/errors";
import { importLeaderboardRelease, type LeaderboardFixtureRelease } from "@/testing/leaderboard/integration-fixtures";
import { importReportedResults } from "@/lib/domain/releases/import-reported-results";
import { assertTestDatabase } from "@/testing/local-database";
import { resetDatabase } from "./support/reset";

/** Reported results: validation with paths, attachment to the named release only, upserts, and the leaderboard rows. */

let release: LeaderboardFixtureRelease;

function fileFor(name: string, results: unknown[]) {
  return { release: { name, version: "1.0" }, results };
}

const openRow = {
  name: "Reported open system",
  track: "open",
  split: "test",
  metrics: { exact: 0.25, alias: 0.3, contain: 0.31, jaccard: 0.4 },
  by_type: { Person: { n: 8, metrics: { jaccard: 0.125 } } },
  source: "A paper, Table 4",
};
const closedRow = {
  name: "Reported closed system",
  track: "closed",
  split: "test",
  metrics: { "hit@1": 0.2, "hit@3": 0.3, "hit@5": 0.35, "hit@10": 0.4, mrr: 0.26, "alias_hit@1": 0.22 },
  source: "A paper, Table 5",
};

async function rejection(promise: Promise<unknown>): Promise<AppError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
  throw new Error("expected the import to be refused");
}

beforeAll(async () => {
  assertTestDatabase();
  // Every request re-reads the version stamp, so each change below shows at once.
  setLeaderboardStampTtl(0);
  await resetDatabase();
  release = await importLeaderboardRelease("leaderboard-reported-int", 40);
});

afterAll(async () => {
  await resetDatabase();
});

describe("importReportedResults", () => {
  it("refuses the paper's file while release irc-bench 1.0 is not imported, naming what is", async () => {
    const paper = JSON.parse(readFileSync(path.resolve(__dirname, "../../data/reported/irc-bench-1.0.json"), "utf8")) as unknown;
    const error = await rejection(importReportedResults({ file: paper }));
    expect(error.code).toBe("not_found");
    expect(error.message).toContain("release irc-bench 1.0, which is not imported here (imported: leaderboard-reported-int 1.0)");
    expect(await db.reportedResult.count()).toBe(0);
  });

  it("rejects an invalid file with one problem per path and writes nothing", async () => {
    const error = await rejection(
      importReportedResults({ file: fileFor("leaderboard-reported-int", [{ ...openRow, metrics: { exact: 25, alias: 0.3 } }, { ...closedRow, track: "hybrid" }]) }),
    );
    expect(error.code).toBe("validation");
    expect(error.problems.map((problem) => problem.message)).toEqual([
      "results[0].metrics.exact: must be a fraction in [0, 1]; write 38.94% as 0.3894",
      'results[1].track: must be "open" or "closed"',
    ]);
    expect(await db.reportedResult.count()).toBe(0);
  });

  it("attaches rows to the named release, upserts on re-import and replaces on request", async () => {
    const first = await importReportedResults({ file: fileFor("leaderboard-reported-int", [openRow, closedRow]) });
    expect(first).toMatchObject({ release: { id: release.releaseId, name: "leaderboard-reported-int", version: "1.0" }, created: 2, updated: 0 });
    const persons = release.gold.test.filter((record) => record.type === "Person").length;
    expect(first.warnings).toEqual(persons === 8 ? [] : [`by_type.Person.n is 8 (results [0]), but the release's test split has ${persons} Person samples`]);

    const again = await importReportedResults({ file: fileFor("leaderboard-reported-int", [{ ...openRow, metrics: { ...openRow.metrics, alias: 0.31 } }]) });
    expect(again).toMatchObject({ created: 0, updated: 1, removed: 0 });
    expect(await db.reportedResult.count({ where: { releaseId: release.releaseId } })).toBe(2);

    const replaced = await importReportedResults({ file: fileFor("leaderboard-reported-int", [openRow]), replace: true });
    expect(replaced).toMatchObject({ created: 0, updated: 1, removed: 1 });
    const rows = await db.reportedResult.findMany({ where: { releaseId: release.releaseId } });
    expect(rows.map((row) => row.name)).toEqual(["Reported open system"]);
    expect(rows[0]?.metrics).toEqual(openRow.metrics);
  });

  it("shows reported rows on the leaderboard without intervals, rank or significance", async () => {
    await importReportedResults({ file: fileFor("leaderboard-reported-int", [openRow, closedRow]) });
    const response = await getLeaderboardApi(new Request("http://127.0.0.1/api/leaderboard?track=unified"));
    const body = (await response.json()) as { entries: { kind: string; system: string; rank: number | null; significance: unknown; metrics: { unified: { value: number; ci95: unknown } } }[] };
    const rows = body.entries.filter((row) => row.kind === "reported");
    // Unified: alias for the open-world row, alias_hit@1 for the closed-world one.
    expect(rows.map((row) => [row.system, row.metrics.unified.value, row.metrics.unified.ci95, row.rank, row.significance])).toEqual([
      ["Reported open system", 0.3, null, null, null],
      ["Reported closed system", 0.22, null, null, null],
    ]);
    const typed = await getLeaderboardApi(new Request("http://127.0.0.1/api/leaderboard?track=open&type=Person"));
    const typedBody = (await typed.json()) as { entries: { system: string; n: number | null; metrics: Record<string, { value: number } | null> }[] };
    expect(typedBody.entries).toEqual([expect.objectContaining({ system: "Reported open system", n: 8, metrics: expect.objectContaining({ jaccard: { value: 0.125, ci95: null }, alias: null }) })]);
  });
});
