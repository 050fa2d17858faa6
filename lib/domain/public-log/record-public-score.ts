import "server-only";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { PLATFORM_SCORING_VERSION } from "@/lib/core/scoring/score-report";
import type { ViewErrata } from "@/lib/core/public-log/view-errata";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";
import { appendPublicLog } from "./append-public-log";
import { takeViewErrata } from "./record-view-errata";

/**
 * The public log's side of storing a score (lib/domain/scoring/process-submission.ts,
 * in its transaction): a baseline's first score puts it on the leaderboard
 * ("baseline.marked"); a re-score of a public entry that changed anything
 * ("entry.rescored") carries, as dated errata, every verdict, rank interval
 * and shown value of the release's public views that changed since the log
 * last recorded them. A private submission's score changes nothing public
 * and is not logged.
 */

type ScoredSubmission = {
  id: string;
  split: "train" | "dev" | "test";
  track: "open" | "closed";
  isBaseline: boolean;
  publication: string;
  baselineLabel: string | null;
  systemName: string | null;
  release: { id: string; name: string; version: string };
};

type PublicScoreChange = {
  submission: ScoredSubmission;
  /** The score replaced, or null for a first score. */
  previous: { scorerVersion: string; goldSha256: string } | null;
  /** Whether the re-score changed anything (lib/domain/scoring/record-rescore.ts). */
  isChanged: boolean;
  goldSha256: string;
};

function isPublicEntry(submission: ScoredSubmission): boolean {
  return submission.isBaseline || (submission.split === "test" && submission.publication === "PUBLISHED");
}

function systemOf(submission: ScoredSubmission): string {
  return (submission.isBaseline ? submission.baselineLabel : null) ?? submission.systemName ?? "Unnamed system";
}

function describeErrata(errata: ViewErrata): string {
  const parts = [
    `${errata.verdicts.length} verdict${errata.verdicts.length === 1 ? "" : "s"}`,
    `${errata.ranks.length} rank interval${errata.ranks.length === 1 ? "" : "s"}`,
    `${errata.values.length} shown value${errata.values.length === 1 ? "" : "s"}`,
  ];
  return `${parts.join(", ")} changed`;
}

export async function recordPublicScore(tx: Prisma.TransactionClient, change: PublicScoreChange): Promise<void> {
  const { submission, previous } = change;
  if (!isPublicEntry(submission) || submission.split === "train") return;
  const errata = submission.split === "test" ? await takeViewErrata(tx, submission.release.id) : { ranks: [], values: [], verdicts: [] };
  const system = systemOf(submission);
  if (previous === null) {
    if (!submission.isBaseline) return;
    await appendPublicLog(tx, {
      kind: "baseline.marked",
      release: submission.release,
      entry: submission.id,
      summary: `Baseline "${system}" (${submission.track}-world, ${submission.split}) scored and shown`,
      data: { system, track: submission.track, split: submission.split },
    });
    return;
  }
  if (!change.isChanged) return;
  const goldChanged = previous.goldSha256 !== change.goldSha256;
  const causes = [
    ...(previous.scorerVersion !== PLATFORM_SCORING_VERSION ? [`scoring version ${previous.scorerVersion} to ${PLATFORM_SCORING_VERSION}`] : []),
    ...(goldChanged ? ["gold fix"] : []),
  ];
  await appendPublicLog(tx, {
    kind: "entry.rescored",
    release: submission.release,
    entry: submission.id,
    summary: `"${system}" re-scored (${causes.join(", ") || "same scorer and gold"}): ${describeErrata(errata)}`,
    data: {
      system,
      track: submission.track,
      split: submission.split,
      scoring_version_before: previous.scorerVersion,
      scoring_version_after: PLATFORM_SCORING_VERSION,
      gold_version_before: goldVersionId(previous.goldSha256),
      gold_version_after: goldVersionId(change.goldSha256),
      verdicts: errata.verdicts,
      ranks: errata.ranks,
      values: errata.values,
    },
  });
}
