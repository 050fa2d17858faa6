import "server-only";
import { noiseOf } from "@/lib/core/disclosure/perturb";
import { noiseContextOf, publicDisclosureOf } from "@/lib/domain/scoring/public-disclosure";
import { db } from "@/lib/platform/db";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { discloseStoredScore, publicGroupPolicy } from "@/lib/core/disclosure/disclose";
import { pickCodes, pickPositions, type TestSlices } from "@/lib/core/slices/slice-membership";
import { loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { publicEntrySql } from "@/lib/domain/scoring/public-entry-rule";
import { parseStoredReportedByType, parseStoredReportedMetrics } from "@/lib/core/dataset/reported-schema";
import type { EntityType } from "@/lib/core/dataset/release-schema";
import type { EntrySource, ReleaseRef, ReportedSource } from "@/lib/core/leaderboard/leaderboard-types";
import { formatDate } from "@/lib/core/format/dates";
import { releaseGoldOf } from "@/lib/core/scoring/score-staleness";
import { readStoredFactSheet } from "@/lib/core/fact-sheet/schema";
import { scoredEntryTier } from "@/lib/core/fact-sheet/tiers";
import { factSheetFacts } from "@/lib/core/leaderboard/fact-sheet-facts";

/**
 * The database side of the leaderboard: which release is shown, a cheap
 * version stamp of everything the leaderboard depends on, and (when the stamp
 * changed) the public entries of its test split with their ranking-slice
 * reports and outcomes (protocol section 12): everything public is built from
 * the ranking slice, so this is the one place that narrows the outcomes to it.
 */

export type ActiveReleaseStamp = {
  release: ReleaseRef;
  /** SHA-256 of the test split's gold as the release holds it now. */
  goldSha256: string | null;
  /** Changes whenever anything the public leaderboard, entry list or entry pages of this release show changes. */
  stamp: string;
};

export type LeaderboardData = {
  entries: EntrySource[];
  reported: ReportedSource[];
  /** The entity type of each ranking-slice sample, in gold order: the type views' paired tests (section 13) use only that type's samples. */
  goldTypes: EntityType[];
  /** Test-split groups smaller than this show no numbers: the release's public group policy (section 12, lib/core/disclosure publicGroupPolicy). */
  minGroupN: number;
  /** The release's date (YYYY-MM-DD, when it was imported): the knowledge-cutoff filter compares with it. */
  releaseDate: string;
  /** The noise of a pair's key (section 12): the release's, for its current gold. */
  noise: (key: string) => number;
};

type StampRow = {
  id: string;
  name: string;
  version: string;
  gold: string | null;
  release: string;
  entries: string;
  comparisons: string;
  reported: string;
};

// The stamp covers every public submission (both splits: entry pages show dev baselines); the board reads the test split's.
const PUBLIC_ENTRY = publicEntrySql("s");
const PUBLIC_TEST_ENTRY = `s."split" = 'test' AND ${PUBLIC_ENTRY}`;

/**
 * One query: the active release and the version stamp of everything its
 * public reads show (the test leaderboard, the entry list and entry pages,
 * both splits): a change to any of it changes the stamp, so anything keyed by
 * the stamp (lib/web/public-cache/public-body-cache.ts) is never served after it.
 */
export async function findActiveReleaseStamp(): Promise<ActiveReleaseStamp | null> {
  return findStamp(`r."isActive"`, []);
}

/** The same stamp for any release by id (an earlier release's board is cached by it); null when no release has the id. */
export async function findReleaseStamp(releaseId: string): Promise<ActiveReleaseStamp | null> {
  return findStamp(`r."id" = $1`, [releaseId]);
}

async function findStamp(releaseWhere: string, values: unknown[]): Promise<ActiveReleaseStamp | null> {
  const rows = await db.$queryRawUnsafe<StampRow[]>(`
    SELECT r."id", r."name", r."version", r."goldSha256"->>'test' AS "gold",
      concat(r."goldSha256"::text, '|', r."minGroupN", '|', r."importedAt") AS "release",
      -- Order-independent: a count and a sum of per-row hashes, no sort and no big string.
      (SELECT concat(count(*), ':', coalesce(sum(hashtext(concat_ws('|', s."id", s."track", s."split", s."isBaseline", s."publication",
                s."systemName", s."baselineLabel", s."factSheet"::text, s."reproducedAt", s."publishedAt", s."createdAt", s."isPrimary",
                s."methodDescription", u."displayName", u."affiliation",
                sc."n", sc."computedAt", sc."scorerVersion", sc."goldSha256"))::bigint), 0))
         FROM "Submission" s
         JOIN "User" u ON u."id" = s."userId"
         LEFT JOIN "Score" sc ON sc."submissionId" = s."id"
        WHERE s."releaseId" = r."id" AND ${PUBLIC_ENTRY}) AS "entries",
      (SELECT concat(count(*), ':', max(c."computedAt"))
         FROM "Comparison" c
         JOIN "Submission" s ON s."id" = c."entryId"
        WHERE s."releaseId" = r."id" AND ${PUBLIC_ENTRY}) AS "comparisons",
      (SELECT concat(count(*), ':', coalesce(sum(hashtext(concat_ws('|', rr."id", rr."name", rr."track", rr."split",
                rr."metrics"::text, rr."byType"::text, rr."source", rr."publishedOn"))::bigint), 0))
         FROM "ReportedResult" rr
        WHERE rr."releaseId" = r."id") AS "reported"
    FROM "DatasetRelease" r
    WHERE ${releaseWhere}
    ORDER BY r."importedAt" DESC
    LIMIT 1`, ...values);
  const row = rows[0];
  if (row === undefined) {
    return null;
  }
  return {
    release: { id: row.id, name: row.name, version: row.version },
    goldSha256: row.gold,
    stamp: `${row.entries}/${row.comparisons}/${row.reported}/${row.release}`,
  };
}

type EntryRow = {
  id: string;
  track: string;
  isBaseline: boolean;
  baselineLabel: string | null;
  systemName: string | null;
  factSheet: unknown;
  reproducedAt: Date | null;
  publishedAt: Date | null;
  createdAt: Date;
  userId: string;
  isPrimary: boolean;
  displayName: string;
  n: number;
  scorerVersion: string;
  goldSha256: string;
  computedAt: Date;
  report: unknown;
  feedbackReport: unknown;
  rankingReport: unknown;
  /** Score.outcomes as base64 text: the driver adapter decodes bytea at ~60 ms per MiB, base64 ~8x faster (1,000 entries of 4,633 codes are 4.6 MB). */
  outcomesBase64: string;
};

/** The ranking slice's outcome codes of a stored score; outcomes of another split size (a stale score) stay whole, and the ranks leave them out. */
function rankingCodes(outcomes: Uint8Array, slices: TestSlices): Uint8Array {
  const total = slices.feedback.length + slices.ranking.length;
  return outcomes.length === total ? pickCodes(outcomes, slices.ranking) : new Uint8Array(0);
}

/** `db`, or a transaction that must see its own writes (the public log's view state, lib/domain/public-log/record-view-errata.ts). */
type LeaderboardClient = Pick<Prisma.TransactionClient, "$queryRawUnsafe" | "reportedResult" | "datasetRelease">;

async function loadEntries(client: LeaderboardClient, release: { id: string; name: string; minGroupN: number }, slices: TestSlices): Promise<EntrySource[]> {
  const releaseId = release.id;
  const rows = await client.$queryRawUnsafe<EntryRow[]>(
    `
    SELECT s."id", s."track"::text AS "track", s."isBaseline", s."baselineLabel", s."systemName",
           s."factSheet", s."reproducedAt", s."publishedAt", s."createdAt", s."userId", s."isPrimary",
           u."displayName", sc."n", sc."scorerVersion", sc."goldSha256", sc."computedAt",
           sc."report", sc."feedbackReport", sc."rankingReport", encode(sc."outcomes", 'base64') AS "outcomesBase64"
      FROM "Submission" s
      JOIN "User" u ON u."id" = s."userId"
      JOIN "Score" sc ON sc."submissionId" = s."id"
     WHERE s."releaseId" = $1 AND ${PUBLIC_TEST_ENTRY}`,
    releaseId,
  );
  // Every number of the public leaderboard is what section 12 lets the public see.
  return rows.flatMap((row): EntrySource[] => {
    const disclosed = discloseStoredScore(row, publicDisclosureOf(release, { id: row.id, goldSha256: row.goldSha256 }));
    const report = disclosed?.report ?? null;
    if (report === null || disclosed?.publicCounts === undefined) return [];
    const factSheet = readStoredFactSheet(row.factSheet);
    const entry: EntrySource = {
      id: row.id,
      outcomes: { track: row.track === "closed" ? "closed" : "open", codes: rankingCodes(Buffer.from(row.outcomesBase64, "base64"), slices) },
      track: row.track === "closed" ? "closed" : "open",
      isBaseline: row.isBaseline,
      system: (row.isBaseline ? row.baselineLabel : null) ?? row.systemName ?? row.baselineLabel ?? "Unnamed system",
      team: row.displayName,
      ...factSheetFacts(factSheet),
      tier: scoredEntryTier({ factSheet, isReproduced: row.reproducedAt !== null }),
      // A baseline has no publication date: it is dated by its upload, which a re-score does not move.
      date: formatDate(row.publishedAt ?? row.createdAt),
      ownerId: row.userId,
      isPrimary: row.isPrimary,
      score: {
        n: report.n,
        scorerVersion: row.scorerVersion,
        goldSha256: row.goldSha256,
        computedAt: row.computedAt.toISOString(),
        metrics: report.metrics,
        ci95: report.ci95,
        byType: report.by_type ?? {},
      },
      publicCounts: disclosed.publicCounts,
    };
    return [entry];
  });
}


async function loadReported(client: LeaderboardClient, releaseId: string): Promise<ReportedSource[]> {
  const rows = await client.reportedResult.findMany({
    where: { releaseId, split: "test" },
    select: { id: true, name: true, track: true, metrics: true, byType: true, source: true, publishedOn: true },
    orderBy: { name: "asc" },
  });
  // A reported row has no sample count of its own; per-type counts come with its by-type numbers.
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    track: row.track,
    n: null,
    metrics: parseStoredReportedMetrics(row.metrics),
    byType: parseStoredReportedByType(row.byType),
    source: row.source,
    date: row.publishedOn === null ? null : formatDate(row.publishedOn),
  }));
}

/** Everything the leaderboard of a release shows, in four queries. */
export async function loadLeaderboardData(releaseId: string, client: LeaderboardClient = db): Promise<LeaderboardData> {
  const release = await client.datasetRelease.findUniqueOrThrow({ where: { id: releaseId }, select: { id: true, name: true, minGroupN: true, importedAt: true, goldSha256: true } });
  const { minGroupN, importedAt } = release;
  // Server-side only: the types of test samples are test gold; they never leave this module except as group sizes.
  const testGold = await loadSplitGold(releaseId, "test");
  if (testGold.slices === null) throw new Error("the test split has no slices");
  // Ranks, type views and the timeline withhold what the reports withhold: the same group policy.
  const policy = publicGroupPolicy({ minGroupN });
  const [entries, reported] = await Promise.all([loadEntries(client, release, testGold.slices), loadReported(client, releaseId)]);
  const testGoldSha = releaseGoldOf(release.goldSha256, "test");
  const noiseContext = testGoldSha === null ? null : noiseContextOf(release.name, testGoldSha);
  // Without a test gold nothing is ranked (no entry's gold matches); the noise is then never read.
  const noise = (key: string): number => (noiseContext === null ? 0 : noiseOf(noiseContext, key));
  const goldTypes = pickPositions(testGold.gold, testGold.slices.ranking).map((record) => record.type);
  return { entries, reported, goldTypes, minGroupN: policy.minGroupN, releaseDate: importedAt.toISOString().slice(0, 10), noise };
}
