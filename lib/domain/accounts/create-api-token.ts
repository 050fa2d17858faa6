import "server-only";
import { DAY_MS } from "@/lib/core/time";
import { requireSession, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { API_TOKEN_VIEW_SELECT, toApiTokenView, type ApiTokenView } from "@/lib/core/accounts/api-token-view";
import type { CreateApiTokenInput } from "@/lib/core/accounts/token-schemas";
import { generateApiToken } from "@/lib/core/accounts/token-format";

/** Active tokens one user may hold; revoke old ones to make room. */
const MAX_ACTIVE_TOKENS_PER_USER = 20;


type CreateApiTokenOptions = CreateApiTokenInput & { actor: Actor; now?: Date };

type CreatedApiToken = {
  /** The token itself: returned once, stored only as its SHA-256. */
  token: string;
  apiToken: ApiTokenView;
};

/**
 * Creates an API token for the signed-in user. Needs a browser session, so a
 * leaked token cannot mint further tokens that outlive its own revocation.
 */
export async function createApiToken(options: CreateApiTokenOptions): Promise<CreatedApiToken> {
  const user = requireSession(options.actor);
  const now = options.now ?? new Date();
  const active = await db.apiToken.count({
    where: { userId: user.userId, revokedAt: null, OR: [{ expiresAt: null }, { expiresAt: { gt: now } }] },
  });
  if (active >= MAX_ACTIVE_TOKENS_PER_USER) {
    throw new AppError("conflict", `You already have ${active} active API tokens; revoke one you no longer use first.`);
  }
  const generated = generateApiToken();
  const record = await db.apiToken.create({
    data: {
      userId: user.userId,
      name: options.name,
      tokenHash: generated.tokenHash,
      prefix: generated.prefix,
      createdAt: now,
      expiresAt: options.expiresInDays ? new Date(now.getTime() + options.expiresInDays * DAY_MS) : null,
    },
    select: API_TOKEN_VIEW_SELECT,
  });
  return { token: generated.token, apiToken: toApiTokenView(record, now) };
}
