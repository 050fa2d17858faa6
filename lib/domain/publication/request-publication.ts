import "server-only";
import { requireUser, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { factSheetColumns } from "@/lib/domain/publication/fact-sheet-columns";
import { parseInput } from "@/lib/core/input/parse-input";
import { findPublicationRefusal } from "@/lib/domain/publication/find-publication-refusal";
import { publicationRequestSchema } from "@/lib/core/submissions/schemas";
import { parseRecordId } from "@/lib/core/text";
import { recordAudit } from "@/lib/platform/audit/record-audit";

/** Reading stored files to compare (answer digests made before this key) can take a while on a loaded machine. */
const TRANSACTION_TIMEOUT_MS = 120_000;

/**
 * The owner asks to publish a scored test submission with its method
 * description and fact sheet; it waits in the maintainers' review queue.
 * Protocol §12's guard runs first (find-publication-refusal.ts: the entries
 * cap of the account or its budget group, and the distance from every
 * baseline, entry and request of the release name), under a lock of the
 * release name, so two concurrent requests (of one account or of two) cannot
 * both pass it against each other. A refusal leaves the submission as it was
 * and stays in the account's request history (a PublicationRefusal row,
 * written under the same lock: later requests are compared with its file);
 * the audit log keeps, for maintainers, which rule it broke.
 */
export async function requestPublication(actor: Actor, submissionId: string, input: unknown): Promise<void> {
  const user = requireUser(actor);
  const submission = await db.submission.findUnique({ where: { id: parseRecordId(submissionId, "submission") } });
  if (!submission || submission.userId !== user.userId) throw new AppError("not_found", "Not found.");
  if (submission.split !== "test") throw new AppError("validation", "Only test submissions can be published; dev scores are for your own use.");
  if (submission.status !== "SCORED") throw new AppError("validation", "The submission must be scored before it can be published.");
  if (submission.publication === "PENDING" || submission.publication === "PUBLISHED") {
    throw new AppError("conflict", submission.publication === "PENDING" ? "Publication was already requested; a maintainer will review it." : "This submission is already published.");
  }
  // Parsed only now: someone who does not own the submission learns nothing, not even that the details are wrong.
  const data = parseInput(publicationRequestSchema, input, { summary: "Some publication details need fixing." });
  const refusal = await db.$transaction(
    async (tx) => {
      const { name } = await tx.datasetRelease.findUniqueOrThrow({ where: { id: submission.releaseId }, select: { name: true } });
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`publication:${name}`}))`;
      const found = await findPublicationRefusal(submission, tx);
      if (found !== null) {
        await tx.publicationRefusal.create({ data: { submissionId: submission.id, userId: user.userId, ...found.record } });
        return found;
      }
      // The condition makes a concurrent request of this submission, or a review, win: then nothing changes here.
      const { count } = await tx.submission.updateMany({
        where: { id: submission.id, publication: { notIn: ["PENDING", "PUBLISHED"] } },
        data: {
          publication: "PENDING",
          methodDescription: data.methodDescription,
          ...factSheetColumns(data.factSheet),
          reviewReason: null,
          hiddenByOwner: false,
          requestedAt: new Date(),
        },
      });
      if (count === 0) throw new AppError("conflict", "Publication was already requested; a maintainer will review it.");
      return null;
    },
    { timeout: TRANSACTION_TIMEOUT_MS, maxWait: 30_000 },
  );
  if (refusal === null) return;
  await recordAudit(db, { actorId: user.userId, action: "submission.publication-refused", targetType: "Submission", targetId: submission.id, details: refusal.audit });
  throw new AppError(refusal.code, refusal.message);
}
