import "server-only";
import { isMaintainer, requireUser, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { submissionNoteSchema } from "@/lib/core/submissions/sample-schemas";

/** The owner's note on one of their runs ("what I changed"); nobody else may edit it. */
export async function updateSubmissionNote(actor: Actor, submissionId: string, input: unknown): Promise<{ id: string; note: string }> {
  const user = requireUser(actor);
  const submission = await db.submission.findUnique({ where: { id: submissionId }, select: { userId: true } });
  if (!submission) throw new AppError("not_found", "Not found.");
  if (submission.userId !== user.userId) {
    if (isMaintainer(user)) throw new AppError("forbidden", "Only the owner of a submission can edit its note.");
    throw new AppError("not_found", "Not found.");
  }
  const parsed = submissionNoteSchema.safeParse(input);
  if (!parsed.success) {
    throw new AppError("validation", "The note needs fixing.", {
      problems: parsed.error.issues.map((issue) => ({ message: `${issue.path.join(".") || "body"}: ${issue.message}` })),
    });
  }
  await db.submission.update({ where: { id: submissionId }, data: { note: parsed.data.note } });
  return { id: submissionId, note: parsed.data.note };
}
