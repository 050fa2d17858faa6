import "server-only";
import { requireUser, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { factSheetColumns } from "@/lib/fact-sheet/fact-sheet-columns";
import { parseInput } from "@/lib/http/parse-input";
import { publicationRequestSchema } from "@/lib/submissions/schemas";
import { parseRecordId } from "@/lib/validation/text";

/**
 * The owner asks to publish a scored test submission with its method
 * description and fact sheet; it waits in the maintainers' review queue.
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
  await db.submission.update({
    where: { id: submissionId },
    data: {
      publication: "PENDING",
      methodDescription: data.methodDescription,
      ...factSheetColumns(data.factSheet),
      reviewReason: null,
      hiddenByOwner: false,
      requestedAt: new Date(),
    },
  });
}
