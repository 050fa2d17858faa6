import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { forgetPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { AppError } from "@/lib/core/errors";
import { parseInput } from "@/lib/core/input/parse-input";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { raisedProbeFlags, readProbeFlags, type ProbeFlag, type ProbeFlagId } from "@/lib/core/integrity/probe-flags-schema";
import { refreshComparisons } from "@/lib/domain/scoring/refresh-comparisons";
import { FLAGGED_REASON_MIN, reviewActionSchema, type ReviewAction } from "@/lib/core/submissions/schemas";
import { enqueueScoring } from "@/lib/platform/queue/scoring-queue";
import { parseRecordId } from "@/lib/core/text";
import { logger } from "@/lib/platform/logger";
import { formatPercent } from "@/lib/core/format/numbers";
import { recordAudit } from "@/lib/platform/audit/record-audit";
import { logEntryChange } from "@/lib/domain/public-log/log-entry-change";

type ReviewResult = { submissionId: string; action: ReviewAction["action"] };

/**
 * A maintainer's action on a submission: approve or reject a publication
 * request, hide a published entry, re-score, mark or unmark as a baseline.
 * Every action is written to the audit log with who, what, when and why.
 */
export async function reviewSubmission(actor: Actor, submissionId: string, input: unknown): Promise<ReviewResult> {
  const maintainer = requireMaintainer(actor);
  const { action, reason, baselineLabel, acknowledge = [] } = parseInput(reviewActionSchema, input);
  const submission = await db.submission.findUnique({
    where: { id: parseRecordId(submissionId, "submission") },
    include: { user: { select: { isSystem: true, role: true } }, score: { select: { probeFlags: true } } },
  });
  if (!submission) throw new AppError("not_found", "Not found.");

  const update = planUpdate(submission, action, reason, baselineLabel);
  // Approving or marking a baseline makes a test file's results public: the maintainer vouches for it (protocol section 12).
  const vouch = action === "approve" || action === "mark-baseline" ? checkProbeFlags(submission, acknowledge, reason) : undefined;
  await db.$transaction(async (tx) => {
    await tx.submission.update({ where: { id: submissionId }, data: update });
    await recordAudit(tx, {
        actorId: maintainer.userId,
        action: `submission.${action}`,
        targetType: "Submission",
        targetId: submissionId,
        reason: reason || null,
        details: {
          from: { status: submission.status, publication: submission.publication, isBaseline: submission.isBaseline },
          split: submission.split,
          ...(action === "mark-baseline" ? { baselineLabel, consent: consentOf(submission) } : {}),
          ...(vouch ? { probeFlags: vouch } : {}),
          // The fact sheet as it stood when approved: the record of what the maintainer vouched for.
          ...(action === "approve" ? { factSheet: (submission.factSheet ?? null) as object | null } : {}),
        },
      });
    // What readers see changed: the public log (docs/public-log.md).
    const kind = publicLogKindOf(submission, action);
    if (kind !== null) await logEntryChange(tx, { kind, submissionId, by: "maintainer" });
  });
  forgetPublicReadStamp();
  if (action === "rescore") {
    // If Redis is down the submission stays QUEUED and the worker's reconciler queues it later.
    await enqueueScoring(submissionId, Date.now()).catch((error: unknown) => logger.warn({ err: error, submissionId }, "review: could not queue the re-score; the reconciler will"));
  }
  if (action === "mark-baseline" || action === "unmark-baseline") await refreshComparisons(submission.releaseId, submission.split);
  return { submissionId, action };
}

/** The public log's kind for a review action, or null when nothing public changes (a rejection, a queued re-score, a no-op). */
function publicLogKindOf(submission: SubmissionRow, action: ReviewAction["action"]): "entry.published" | "entry.unhidden" | "entry.hidden" | "baseline.marked" | "baseline.unmarked" | null {
  switch (action) {
    case "approve":
      return submission.publication === "HIDDEN" ? "entry.unhidden" : "entry.published";
    case "hide":
      return "entry.hidden";
    case "mark-baseline":
      return submission.isBaseline ? null : "baseline.marked";
    case "unmark-baseline":
      return submission.isBaseline ? "baseline.unmarked" : null;
    default:
      return null;
  }
}

type SubmissionRow = Prisma.SubmissionGetPayload<{
  include: { user: { select: { isSystem: true; role: true } }; score: { select: { probeFlags: true } } };
}>;

type Consent = "system account" | "maintainer" | "publication requested";

/** Why the owner agrees to the file being public, or null when they have not (docs/integrity.md "Baselines"). */
function consentOf(submission: SubmissionRow): Consent | null {
  if (submission.user.isSystem) return "system account";
  if (submission.user.role === "MAINTAINER") return "maintainer";
  if (submission.publication === "PENDING" || submission.publication === "PUBLISHED") return "publication requested";
  return null;
}

const CONSENT_REFUSAL: Record<"PRIVATE" | "REJECTED" | "HIDDEN", string> = {
  PRIVATE: "its owner has not asked to publish it",
  REJECTED: "its publication request was rejected",
  HIDDEN: "it was hidden from the leaderboard",
};

type ProbeFlagsAudit = { raised: Array<Pick<ProbeFlag, "id" | "value" | "threshold">>; acknowledged: ProbeFlagId[] };

function describeFlag(flag: ProbeFlag): string {
  return `${flag.id} (${flag.label}: ${formatPercent(flag.value)}%, threshold ${formatPercent(flag.threshold)}%)`;
}

/**
 * A test file's raised probe flags must each be acknowledged, with a reason,
 * before the maintainer makes it public. Returns what goes to the audit log.
 */
function checkProbeFlags(submission: SubmissionRow, acknowledge: readonly ProbeFlagId[], reason: string | undefined): ProbeFlagsAudit | undefined {
  if (submission.split !== "test" || submission.status !== "SCORED") return undefined;
  const stored = submission.score?.probeFlags ?? null;
  const flags = readProbeFlags(stored);
  if (flags === null) {
    const why = stored === null ? "were not computed (it was scored before they existed)" : "could not be read";
    throw new AppError("conflict", `The probe flags of this file ${why}: re-score it, then review its flags.`);
  }
  const raised = raisedProbeFlags(flags);
  const missing = raised.filter((flag) => !acknowledge.includes(flag.id));
  if (missing.length > 0) {
    throw new AppError(
      "conflict",
      `Acknowledge each raised probe flag before making this file public: ${missing.map(describeFlag).join("; ")}. ` +
        `Send "acknowledge": [${missing.map((flag) => JSON.stringify(flag.id)).join(", ")}] with a reason.`,
    );
  }
  if (raised.length > 0 && (reason?.length ?? 0) < FLAGGED_REASON_MIN) {
    throw new AppError("validation", `reason: a file with raised probe flags needs a reason for the audit log (at least ${FLAGGED_REASON_MIN} characters).`);
  }
  return {
    raised: raised.map(({ id, value, threshold }) => ({ id, value, threshold })),
    acknowledged: raised.map((flag) => flag.id),
  };
}

function planUpdate(submission: SubmissionRow, action: ReviewAction["action"], reason: string | undefined, baselineLabel: string | undefined): Prisma.SubmissionUpdateInput {
  switch (action) {
    case "approve":
      if (submission.publication !== "PENDING" && submission.publication !== "HIDDEN") {
        throw new AppError("conflict", "Only a pending publication request or a hidden entry can be approved.");
      }
      if (submission.status !== "SCORED") throw new AppError("conflict", "Only scored submissions can be published.");
      return { publication: "PUBLISHED", publishedAt: submission.publishedAt ?? new Date(), reviewReason: reason || null, hiddenByOwner: false };
    case "reject":
      if (submission.publication !== "PENDING") throw new AppError("conflict", "Only a pending publication request can be rejected.");
      return { publication: "REJECTED", reviewReason: reason ?? null, isPrimary: false };
    case "hide":
      if (submission.publication !== "PUBLISHED") throw new AppError("conflict", "Only a published entry can be hidden.");
      return { publication: "HIDDEN", reviewReason: reason || null, hiddenByOwner: false };
    case "rescore":
      return { status: "QUEUED", queuedAt: new Date(), failureKind: null, failureReason: null };
    case "mark-baseline": {
      if (submission.status !== "SCORED") throw new AppError("conflict", "Only scored submissions can be baselines.");
      if (consentOf(submission) === null) {
        const refusal = CONSENT_REFUSAL[submission.publication as keyof typeof CONSENT_REFUSAL] ?? CONSENT_REFUSAL.PRIVATE;
        throw new AppError(
          "forbidden",
          `This submission cannot be a baseline: ${refusal}. A baseline is public, so only submissions of the system account, of maintainers, or whose owner asked to publish them (pending or published) can be baselines.`,
        );
      }
      // The schema requires a label for this action; the file name is never a public label.
      if (baselineLabel === undefined) throw new AppError("validation", "baselineLabel: a baseline needs a label.");
      return { isBaseline: true, baselineLabel };
    }
    case "unmark-baseline":
      return { isBaseline: false };
  }
}
