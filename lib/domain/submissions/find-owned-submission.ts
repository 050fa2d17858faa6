import "server-only";
import { requireSession, type Actor, type UserActor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { Prisma } from "@/lib/platform/generated/prisma";

/**
 * The signed-in owner's own submission, for the owner's controls over their
 * entries (withdraw, hide, primary). Someone else's, or a missing id, is 404:
 * the answer does not reveal that the submission exists. A browser session
 * is needed: these change what the public sees.
 */
export async function findOwnedSubmission(actor: Actor, submissionId: string, client: Prisma.TransactionClient = db) {
  const owner: UserActor = requireSession(actor);
  const submission = await client.submission.findUnique({ where: { id: submissionId } });
  if (!submission || submission.userId !== owner.userId) throw new AppError("not_found", "Not found.");
  return { owner, submission };
}
