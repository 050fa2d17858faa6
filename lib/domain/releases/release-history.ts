import "server-only";
import { db } from "@/lib/platform/db";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { isPublicEntry } from "@/lib/domain/scoring/public-entry-rule";
import { PLATFORM_SCORING_VERSION } from "@/lib/core/scoring/score-report";
import { PRIMARY_METRIC } from "@/lib/core/scoring/tracks";
import { DOWNLOAD_NAMES } from "@/lib/core/dataset/download-format";
import { readDownloadDigests, readReleaseStats, type Digest, type ReleaseStats } from "@/lib/core/dataset/release-json";
import { formatCount } from "@/lib/core/format/numbers";

/**
 * What the release pages show (/dataset/releases and /dataset/releases/[version]):
 * each release's card, files and checksums, the scorer versions its scores were
 * made with, its re-scoring events and whether it was superseded. Numbers
 * derived from test outcomes are the primary metric of public entries only,
 * through lib/core/disclosure (protocol section 12); re-scores of other
 * submissions are counted, never shown.
 */

type ReleaseSummary = {
  id: string;
  name: string;
  version: string;
  description: string;
  importedAt: string;
  isActive: boolean;
  supersededAt: string | null;
  supersededBy: { name: string; version: string } | null;
  stats: ReleaseStats;
};

type ScorerVersionCount = { scorerVersion: string; split: string; scores: number; isCurrent: boolean };

type PublicRescore = {
  entryId: string;
  system: string;
  split: "dev" | "test";
  track: "open" | "closed";
  metric: string;
  /** Dev entries only (the dev gold is public); a test entry's are in the public log's errata. */
  before: number | null;
  after: number | null;
  beforeScorerVersion: string;
  afterScorerVersion: string;
  /** Gold version ids (section 10), never the gold's SHA-256. */
  beforeGoldVersion: string;
  afterGoldVersion: string;
  at: string;
};

type PrivateRescores = { split: string; beforeScorerVersion: string; afterScorerVersion: string; isGoldChanged: boolean; count: number };

type ReleaseDetail = ReleaseSummary & {
  files: { name: string; digest: Digest }[];
  minGroupN: number;
  scorerVersions: ScorerVersionCount[];
  publicRescores: PublicRescore[];
  privateRescores: PrivateRescores[];
  otherReleases: { version: string; isActive: boolean }[];
};

const SUMMARY_SELECT = {
  id: true,
  name: true,
  version: true,
  description: true,
  importedAt: true,
  isActive: true,
  supersededAt: true,
  stats: true,
  supersededBy: { select: { name: true, version: true } },
} as const;

type SummaryRow = {
  id: string;
  name: string;
  version: string;
  description: string;
  importedAt: Date;
  isActive: boolean;
  supersededAt: Date | null;
  stats: unknown;
  supersededBy: { name: string; version: string } | null;
};

function toSummary(row: SummaryRow): ReleaseSummary {
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    description: row.description,
    importedAt: row.importedAt.toISOString(),
    isActive: row.isActive,
    supersededAt: row.supersededAt?.toISOString() ?? null,
    supersededBy: row.supersededBy,
    stats: readReleaseStats(row.stats),
  };
}

/** The release of a version (the newest import when two release names share it); null when there is none. */
export async function findReleaseByVersion(version: string): Promise<ReleaseSummary | null> {
  const row = await db.datasetRelease.findFirst({ where: { version }, orderBy: { importedAt: "desc" }, select: SUMMARY_SELECT });
  return row === null ? null : toSummary(row);
}

async function countScorerVersions(releaseId: string): Promise<ScorerVersionCount[]> {
  const rows = await db.$queryRaw<{ scorerVersion: string; split: string; scores: bigint }[]>`
    SELECT sc."scorerVersion", s."split"::text AS "split", count(*) AS "scores"
      FROM "Score" sc JOIN "Submission" s ON s."id" = sc."submissionId"
     WHERE s."releaseId" = ${releaseId}
     GROUP BY sc."scorerVersion", s."split"
     ORDER BY sc."scorerVersion" DESC, s."split"`;
  return rows.map((row) => ({ scorerVersion: row.scorerVersion, split: row.split, scores: Number(row.scores), isCurrent: row.scorerVersion === PLATFORM_SCORING_VERSION }));
}

const RESCORES_SHOWN = 200;

async function loadRescores(releaseId: string): Promise<{ publicRescores: PublicRescore[]; privateRescores: PrivateRescores[] }> {
  const events = await db.rescoreEvent.findMany({
    where: { releaseId },
    orderBy: { createdAt: "desc" },
    take: 5000,
    include: { submission: { select: { id: true, isBaseline: true, publication: true, split: true, systemName: true, baselineLabel: true } } },
  });
  const publicRescores: PublicRescore[] = [];
  const privateGroups = new Map<string, PrivateRescores>();
  for (const event of events) {
    const submission = event.submission;
    const split = event.split === "test" ? "test" : "dev";
    if (!isPublicEntry(submission)) {
      const isGoldChanged = event.beforeGoldSha256 !== event.afterGoldSha256;
      const key = `${split}|${event.beforeScorerVersion}|${event.afterScorerVersion}|${isGoldChanged}`;
      const group = privateGroups.get(key) ?? { split, beforeScorerVersion: event.beforeScorerVersion, afterScorerVersion: event.afterScorerVersion, isGoldChanged, count: 0 };
      group.count += 1;
      privateGroups.set(key, group);
      continue;
    }
    if (publicRescores.length >= RESCORES_SHOWN) continue;
    // Section 12 (v1.3): an event holds exact ranking-slice metrics, and a rounded exact count is what the perturbation
    // exists to hide; a test entry's public values before and after are the change log's errata (perturbed), not these.
    const metric = PRIMARY_METRIC[event.track];
    const valueOf = (metrics: unknown): number | null => {
      const value = metrics !== null && typeof metrics === "object" ? (metrics as Record<string, unknown>)[metric] : undefined;
      return typeof value === "number" && split === "dev" ? value : null;
    };
    publicRescores.push({
      entryId: submission.id,
      system: (submission.isBaseline ? submission.baselineLabel : null) ?? submission.systemName ?? submission.baselineLabel ?? "Unnamed system",
      split,
      track: event.track,
      metric,
      before: valueOf(event.beforeMetrics),
      after: valueOf(event.afterMetrics),
      beforeScorerVersion: event.beforeScorerVersion,
      afterScorerVersion: event.afterScorerVersion,
      beforeGoldVersion: goldVersionId(event.beforeGoldSha256),
      afterGoldVersion: goldVersionId(event.afterGoldSha256),
      at: event.createdAt.toISOString(),
    });
  }
  return { publicRescores, privateRescores: [...privateGroups.values()] };
}

/** The release page's data; null when no release has this version. */
export async function getReleaseDetail(version: string): Promise<ReleaseDetail | null> {
  const row = await db.datasetRelease.findFirst({
    where: { version },
    orderBy: { importedAt: "desc" },
    select: { ...SUMMARY_SELECT, downloads: true, minGroupN: true },
  });
  if (row === null) return null;
  const digests = readDownloadDigests(row.downloads);
  const [scorerVersions, rescores, others] = await Promise.all([
    countScorerVersions(row.id),
    loadRescores(row.id),
    db.datasetRelease.findMany({ where: { NOT: { id: row.id } }, orderBy: { importedAt: "desc" }, select: { version: true, isActive: true } }),
  ]);
  return {
    ...toSummary(row),
    files: DOWNLOAD_NAMES.flatMap((name) => {
      const digest = digests[name];
      return digest === undefined ? [] : [{ name, digest }];
    }),
    minGroupN: row.minGroupN,
    scorerVersions,
    ...rescores,
    otherReleases: others,
  };
}

type ChangelogEntry = ReleaseSummary & {
  /** What changed from the release imported before it, in words; empty for the first. */
  changes: string[];
  rescoreCount: number;
};

const SPLIT_NAMES = ["train", "dev", "test"] as const;

function signed(value: number): string {
  return value > 0 ? `+${formatCount(value)}` : formatCount(value);
}

function goldOf(stored: unknown, split: string): string | null {
  const value = stored !== null && typeof stored === "object" ? (stored as Record<string, unknown>)[split] : undefined;
  return typeof value === "string" ? value : null;
}

/** What changed between two releases: sample and KB counts, and which splits' gold differs (never the checksums themselves). */
function describeReleaseChanges(previous: { stats: ReleaseStats; goldSha256: unknown }, current: { stats: ReleaseStats; goldSha256: unknown }): string[] {
  const changes: string[] = [];
  for (const split of SPLIT_NAMES) {
    const delta = current.stats.splits[split].samples - previous.stats.splits[split].samples;
    if (delta !== 0) changes.push(`${split}: ${signed(delta)} samples (now ${formatCount(current.stats.splits[split].samples)})`);
  }
  const kbDelta = current.stats.kbEntities - previous.stats.kbEntities;
  if (kbDelta !== 0) changes.push(`knowledge base: ${signed(kbDelta)} entities (now ${formatCount(current.stats.kbEntities)})`);
  const changedGold = SPLIT_NAMES.filter((split) => goldOf(previous.goldSha256, split) !== goldOf(current.goldSha256, split));
  if (changedGold.length > 0) changes.push(`gold changed on ${changedGold.join(", ")}: scores of the earlier release do not carry over`);
  if (changes.length === 0) changes.push("same counts and gold as the release before");
  return changes;
}

/** Every release, newest first, with what changed from the one imported before it and how many scores were re-made. */
export async function listReleaseChangelog(): Promise<ChangelogEntry[]> {
  const rows = await db.datasetRelease.findMany({
    orderBy: [{ importedAt: "desc" }, { version: "desc" }],
    select: { ...SUMMARY_SELECT, goldSha256: true, _count: { select: { rescoreEvents: true } } },
  });
  return rows.map((row, index) => {
    const summary = toSummary(row);
    const previous = rows[index + 1];
    const changes = previous === undefined ? [] : describeReleaseChanges({ stats: readReleaseStats(previous.stats), goldSha256: previous.goldSha256 }, { stats: summary.stats, goldSha256: row.goldSha256 });
    return { ...summary, changes, rescoreCount: row._count.rescoreEvents };
  });
}
