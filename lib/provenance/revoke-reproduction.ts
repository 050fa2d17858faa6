import "server-only";
import { requireMaintainer, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { forgetPublicReadStamp } from "@/lib/leaderboard/get-leaderboard";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/http/parse-input";
import { parseRecordId } from "@/lib/validation/text";
import { reproductionRevokeSchema } from "./schemas";
import { recordAudit } from "@/lib/audit/record-audit";

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
