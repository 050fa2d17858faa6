import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { forgetPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { discloseReproductionCheck } from "@/lib/core/disclosure/disclose-reproduction";
import { AppError } from "@/lib/core/errors";
import { parseInput } from "@/lib/core/input/parse-input";
import { parseRecordId } from "@/lib/core/text";
import { countDifferingOutcomes } from "@/lib/core/integrity/count-differing-outcomes";
import { reproductionCheckSchema } from "@/lib/core/fact-sheet/schemas";
import { formatCount } from "@/lib/core/format/numbers";
import { recordAudit } from "@/lib/platform/audit/record-audit";

type ReproductionResult = { entryId: string; reproductionId: string; tier: "reproduced"; n: number };

const SUBMISSION_SELECT = {
  id: true,
  userId: true,
  releaseId: true,
  split: true,
  track: true,
  status: true,
  isBaseline: true,
  publication: true,
  fileSha256: true,
  reproducedAt: true,
  score: { select: { goldSha256: true, n: true, outcomes: true } },
} as const;

/**
 * A maintainer re-ran an entry's code and uploaded its predictions as a test
 * submission, which the normal pipeline scored. This compares the two sets of
 * per-sample outcomes on the server: the same outcome on every sample makes
 * the entry "reproduced" (who, when, with which submission); otherwise the
 * check is refused with how many samples differ, a count and nothing more
 * (lib/core/disclosure/disclose-reproduction.ts). Both answers are audited.
 */
export async function checkReproduction(actor: Actor, entryId: string, input: unknown): Promise<ReproductionResult> {
  const maintainer = requireMaintainer(actor);
  const { reproductionId, reason } = parseInput(reproductionCheckSchema, input);
  const [entry, reproduction] = await Promise.all([
    db.submission.findUnique({ where: { id: parseRecordId(entryId, "submission") }, select: SUBMISSION_SELECT }),
    db.submission.findUnique({ where: { id: reproductionId }, select: SUBMISSION_SELECT }),
  ]);
  if (entry === null) throw new AppError("not_found", "Not found.");
  if (entry.isBaseline || entry.split !== "test" || entry.score === null || (entry.publication !== "PUBLISHED" && entry.publication !== "PENDING")) {
    throw new AppError("validation", "Only a scored test entry that is published or waiting for review can be reproduced.");
  }
  if (entry.userId === maintainer.userId) {
    throw new AppError("forbidden", "You own this entry: another maintainer must reproduce it.");
  }
  const problem = reproductionProblem(entry, reproduction, maintainer.userId);
  if (problem !== null) {
    throw new AppError("validation", problem, { problems: [{ field: "reproductionId", message: `field "reproductionId" ${problem}` }] });
  }
  const entryScore = entry.score;
  const reproductionScore = reproduction!.score!;
  const differing = countDifferingOutcomes(
    { track: entry.track, codes: new Uint8Array(entryScore.outcomes) },
    { track: reproduction!.track, codes: new Uint8Array(reproductionScore.outcomes) },
  );
  const check = discloseReproductionCheck(differing, entryScore.n, "full");
  const audit = {
    actorId: maintainer.userId,
    targetType: "Submission" as const,
    targetId: entry.id,
    reason: reason || null,
    details: { reproductionId, differing: check.differing, n: check.n },
  };
  if (check.differing > 0) {
    await recordAudit(db, { ...audit, action: "submission.reproduction-refused" });
    throw new AppError(
      "validation",
      `Not reproduced: ${formatCount(check.differing)} of ${formatCount(check.n)} samples have a different outcome in the reproduction. The tier is unchanged.`,
      { problems: [{ field: "reproductionId", message: `field "reproductionId" differs from the entry on ${check.differing} of ${check.n} samples` }] },
    );
  }
  await db.$transaction([
    db.submission.update({ where: { id: entry.id }, data: { reproducedAt: new Date(), reproducedById: maintainer.userId, reproductionId } }),
    recordAudit(db, { ...audit, action: "submission.reproduce" }),
  ]);
  forgetPublicReadStamp();
  return { entryId: entry.id, reproductionId, tier: "reproduced", n: check.n };
}

type Row = {
  id: string;
  userId: string;
  releaseId: string;
  split: string;
  track: string;
  status: string;
  fileSha256: string;
  score: { goldSha256: string; n: number; outcomes: Uint8Array } | null;
};

/** Why `reproduction` cannot stand for a re-run of `entry`, or null when it can. */
function reproductionProblem(entry: Row, reproduction: Row | null, maintainerId: string): string | null {
  if (reproduction === null) return "names no submission";
  if (reproduction.id === entry.id) return "is the entry itself; upload the predictions of the re-run as a new test submission";
  if (reproduction.userId !== maintainerId) return "must be a submission you uploaded yourself: the predictions of your own re-run of the entry's code";
  if (reproduction.split !== "test" || reproduction.releaseId !== entry.releaseId) return "must be a test submission of the entry's release";
  if (reproduction.track !== entry.track) return `must be of the entry's track (${entry.track})`;
  if (reproduction.status !== "SCORED" || reproduction.score === null) return "is not scored yet; wait until the pipeline has scored it";
  if (reproduction.fileSha256 === entry.fileSha256) return "is the very file the owner uploaded; a reproduction is the output of re-running their code";
  if (reproduction.score.goldSha256 !== entry.score?.goldSha256 || reproduction.score.n !== entry.score.n) {
    return "was scored against another version of the gold; re-score the entry or the reproduction first";
  }
  return null;
}
