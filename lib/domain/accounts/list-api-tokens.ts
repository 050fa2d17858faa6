import "server-only";
import { requireUser, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { API_TOKEN_VIEW_SELECT, toApiTokenView, type ApiTokenView } from "@/lib/core/accounts/api-token-view";

/** The actor's own tokens, newest first (revoked and expired ones included). */
export async function listApiTokens(options: { actor: Actor; now?: Date }): Promise<ApiTokenView[]> {
  const user = requireUser(options.actor);
  const now = options.now ?? new Date();
  const records = await db.apiToken.findMany({
    where: { userId: user.userId },
    orderBy: { createdAt: "desc" },
    select: API_TOKEN_VIEW_SELECT,
  });
  return records.map((record) => toApiTokenView(record, now));
}
