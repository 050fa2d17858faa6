import "server-only";
import { requireMaintainer, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Prisma } from "@/lib/generated/prisma";
import { refreshComparisons } from "@/lib/submissions/refresh-comparisons";
import { reviewActionSchema, type ReviewAction } from "@/lib/submissions/schemas";
import { enqueueScoring } from "@/lib/submissions/scoring-queue";

export type ReviewResult = { submissionId: string; action: ReviewAction["action"] };

/**
 * A maintainer's action on a submission: approve or reject a publication
 * request, hide a published entry, re-score, mark or unmark as a baseline.
 * Every action is written to the audit log with who, what, when and why.
 */
export async function reviewSubmission(actor: Actor, submissionId: string, input: unknown): Promise<ReviewResult> {
  const maintainer = requireMaintainer(actor);
  const parsed = reviewActionSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError("validation", parsed.error.issues.map((issue) => `${issue.path.join(".") || "action"}: ${issue.message}`).join("; "));
  }
  const { action, reason, baselineLabel } = parsed.data;
  const submission = await db.submission.findUnique({ where: { id: submissionId } });
  if (!submission) throw new AppError("not_found", "Not found.");

  const update = planUpdate(submission, action, reason, baselineLabel);
  await db.$transaction([
    db.submission.update({ where: { id: submissionId }, data: update }),
    db.auditLog.create({
      data: {
        actorId: maintainer.userId,
        action: `submission.${action}`,
        targetType: "Submission",
        targetId: submissionId,
        reason: reason || null,
        details: { from: { status: submission.status, publication: submission.publication, isBaseline: submission.isBaseline }, split: submission.split },
      },
    }),
  ]);
  if (action === "rescore") {
    // If Redis is down the submission stays QUEUED and the worker's reconciler queues it later.
    await enqueueScoring(submissionId, Date.now()).catch((error: unknown) => console.error(`[review] could not queue ${submissionId}`, error));
  }
  if (action === "mark-baseline" || action === "unmark-baseline") await refreshComparisons(submission.releaseId, submission.split);
  return { submissionId, action };
}

type SubmissionRow = NonNullable<Awaited<ReturnType<typeof db.submission.findUnique>>>;

function planUpdate(submission: SubmissionRow, action: ReviewAction["action"], reason: string | undefined, baselineLabel: string | undefined): Prisma.SubmissionUpdateInput {
  switch (action) {
    case "approve":
      if (submission.publication !== "PENDING" && submission.publication !== "HIDDEN") {
        throw new AppError("conflict", "Only a pending publication request or a hidden entry can be approved.");
      }
      if (submission.status !== "SCORED") throw new AppError("conflict", "Only scored submissions can be published.");
      return { publication: "PUBLISHED", publishedAt: submission.publishedAt ?? new Date(), reviewReason: reason || null };
    case "reject":
      if (submission.publication !== "PENDING") throw new AppError("conflict", "Only a pending publication request can be rejected.");
      return { publication: "REJECTED", reviewReason: reason ?? null };
    case "hide":
      if (submission.publication !== "PUBLISHED") throw new AppError("conflict", "Only a published entry can be hidden.");
      return { publication: "HIDDEN", reviewReason: reason || null };
    case "rescore":
      return { status: "QUEUED", queuedAt: new Date(), failureKind: null, failureReason: null };
    case "mark-baseline":
      if (submission.status !== "SCORED") throw new AppError("conflict", "Only scored submissions can be baselines.");
      return { isBaseline: true, baselineLabel: baselineLabel ?? submission.systemName ?? submission.originalName };
    case "unmark-baseline":
      return { isBaseline: false };
  }
}
