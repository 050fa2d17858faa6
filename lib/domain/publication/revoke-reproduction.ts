import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { forgetPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import { AppError } from "@/lib/core/errors";
import { parseInput } from "@/lib/core/input/parse-input";
import { parseRecordId } from "@/lib/core/text";
import { reproductionRevokeSchema } from "@/lib/core/fact-sheet/schemas";
import { recordAudit } from "@/lib/platform/audit/record-audit";

/** A maintainer takes the "reproduced" tier away (audited with the reason and the reproduction it had). */
export async function revokeReproduction(actor: Actor, entryId: string, input: unknown): Promise<{ entryId: string; tier: "revoked" }> {
  const maintainer = requireMaintainer(actor);
  const { reason } = parseInput(reproductionRevokeSchema, input);
  const entry = await db.submission.findUnique({
    where: { id: parseRecordId(entryId, "submission") },
    select: { id: true, reproducedAt: true, reproducedById: true, reproductionId: true },
  });
  if (entry === null) throw new AppError("not_found", "Not found.");
  if (entry.reproducedAt === null) throw new AppError("conflict", "This entry is not marked reproduced.");
  await db.$transaction([
    db.submission.update({ where: { id: entry.id }, data: { reproducedAt: null, reproducedById: null, reproductionId: null } }),
    recordAudit(db, {
        actorId: maintainer.userId,
        action: "submission.unreproduce",
        targetType: "Submission",
        targetId: entry.id,
        reason,
        details: { reproductionId: entry.reproductionId, reproducedAt: entry.reproducedAt.toISOString(), reproducedById: entry.reproducedById },
      }),
  ]);
  forgetPublicReadStamp();
  return { entryId: entry.id, tier: "revoked" };
}
