import "server-only";
import { isMaintainer, requireUser, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { forgetPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { AppError } from "@/lib/core/errors";
import { factSheetColumns } from "@/lib/domain/publication/fact-sheet-columns";
import { readStoredFactSheet, type FactSheet } from "@/lib/core/fact-sheet/schema";
import { parseInput } from "@/lib/core/input/parse-input";
import { factSheetEditSchema } from "@/lib/core/submissions/schemas";
import { parseRecordId } from "@/lib/core/text";
import { recordAudit } from "@/lib/platform/audit/record-audit";
import { logEntryChange } from "@/lib/domain/public-log/log-entry-change";

type FactSheetEditResult = { submissionId: string; factSheet: FactSheet; isAudited: boolean };

/**
 * Replaces a submission's fact sheet. The owner may edit it until a
 * maintainer approves the entry (private, pending or rejected); once it is
 * published the sheet is read-only for the owner, and only a maintainer can
 * change it, with a reason and an audit-log row holding the sheet before and
 * after (also when the maintainer owns the entry). A maintainer's edit of
 * someone else's entry that is not yet public is audited too. The edit
 * applies only if the entry is still in the state it was read in, so an
 * approval racing it turns it into a conflict.
 */
export async function editFactSheet(actor: Actor, submissionId: string, input: unknown): Promise<FactSheetEditResult> {
  const user = requireUser(actor);
  const submission = await db.submission.findUnique({
    where: { id: parseRecordId(submissionId, "submission") },
    select: { id: true, userId: true, split: true, isBaseline: true, publication: true, factSheet: true },
  });
  const isOwner = submission !== null && submission.userId === user.userId;
  const asMaintainer = isMaintainer(user);
  if (submission === null || (!isOwner && !asMaintainer)) throw new AppError("not_found", "Not found.");
  if (submission.isBaseline) throw new AppError("validation", "Baselines have no fact sheet; their label and description are set by maintainers.");
  if (submission.split !== "test") throw new AppError("validation", "Only test submissions have a fact sheet (it is asked when requesting publication).");
  const isLocked = submission.publication === "PUBLISHED" || submission.publication === "HIDDEN";
  if (isLocked && !asMaintainer) {
    throw new AppError("conflict", "The fact sheet is read-only once a maintainer approved the entry; ask a maintainer to correct it.");
  }
  const { factSheet, reason } = parseInput(factSheetEditSchema, input, { summary: "Some fact sheet answers need fixing." });
  // Every change to a public record is audited, whoever owns it; so is a maintainer's edit of someone else's entry.
  const isAudited = isLocked || (asMaintainer && !isOwner);
  if (isLocked && (reason?.length ?? 0) < 5) {
    throw new AppError("validation", 'field "reason" must say why an approved entry\'s fact sheet changes (at least 5 characters; it goes to the audit log)', {
      problems: [{ field: "reason", message: 'field "reason" must say why an approved entry\'s fact sheet changes (at least 5 characters)' }],
    });
  }
  await db.$transaction(async (tx) => {
    // Only while the entry is as it was read: an approval that lands in between makes this a conflict, not an unaudited edit of a public entry.
    const { count } = await tx.submission.updateMany({ where: { id: submission.id, publication: submission.publication }, data: factSheetColumns(factSheet) });
    if (count === 0) throw new AppError("conflict", "The entry was reviewed while its fact sheet was being edited; reload the page and edit it again.");
    if (!isAudited) return;
    await recordAudit(tx, {
        actorId: user.userId,
        action: "submission.edit-fact-sheet",
        targetType: "Submission",
        targetId: submission.id,
        reason: reason || null,
        details: {
          publication: submission.publication,
          before: (readStoredFactSheet(submission.factSheet) ?? null) as object | null,
          after: factSheet as unknown as object,
        },
      });
    // A published (or hidden: its page stays readable) entry's fact sheet is public: the change is in the public log.
    if (isLocked) await logEntryChange(tx, { kind: "entry.fact-sheet-changed", submissionId: submission.id, by: "maintainer", extra: { publication: submission.publication } });
  });
  forgetPublicReadStamp();
  return { submissionId: submission.id, factSheet, isAudited };
}
