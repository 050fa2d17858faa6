import "server-only";
import { requireOwnerOrMaintainer, requireUser, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { API_TOKEN_VIEW_SELECT, toApiTokenView, type ApiTokenView } from "@/lib/core/accounts/api-token-view";
import { parseRecordId } from "@/lib/core/text";
import { recordAudit } from "@/lib/platform/audit/record-audit";

/**
 * Revokes a token. Its owner may (also with the token itself), and so may a
 * maintainer's session; anyone else gets 404. Revoking twice is harmless and
 * keeps the first revocation time. A maintainer revoking someone else's token
 * is written to the audit log.
 */
export async function revokeApiToken(options: { actor: Actor; tokenId: string; now?: Date }): Promise<ApiTokenView> {
  requireUser(options.actor);
  const now = options.now ?? new Date();
  const token = await db.apiToken.findUnique({ where: { id: parseRecordId(options.tokenId, "token") }, select: { ...API_TOKEN_VIEW_SELECT, userId: true } });
  if (!token) throw new AppError("not_found", "Not found.");
  const user = requireOwnerOrMaintainer(options.actor, token.userId);
  if (token.revokedAt) return toApiTokenView(token, now);

  const revoked = await db.$transaction(async (tx) => {
    const updated = await tx.apiToken.update({ where: { id: token.id }, data: { revokedAt: now }, select: API_TOKEN_VIEW_SELECT });
    if (user.userId !== token.userId) {
      await recordAudit(tx, {
          actorId: user.userId,
          action: "api_token.revoked",
          targetType: "ApiToken",
          targetId: token.id,
          details: { ownerId: token.userId, prefix: token.prefix },
        });
    }
    return updated;
  });
  return toApiTokenView(revoked, now);
}
