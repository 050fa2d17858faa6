import "server-only";
import type { UserActor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { hashApiToken, isApiTokenFormat } from "@/lib/core/accounts/token-format";

/** lastUsedAt is refreshed at most this often, so busy scripts do not write on every request. */
export const LAST_USED_RESOLUTION_MS = 60 * 1000;

/**
 * Turns the token from `Authorization: Bearer <token>` into an actor, or
 * throws AppError("unauthenticated") saying why it was refused. The token is
 * looked up by its SHA-256, so the stored hashes are never compared in code.
 */
export async function authenticateApiToken(token: string, now: Date = new Date()): Promise<UserActor> {
  if (!isApiTokenFormat(token)) {
    throw new AppError("unauthenticated", "The API token is malformed: expected 'ircb_' followed by 43 characters.");
  }
  const record = await db.apiToken.findUnique({
    where: { tokenHash: hashApiToken(token) },
    select: {
      id: true,
      expiresAt: true,
      revokedAt: true,
      lastUsedAt: true,
      user: { select: { id: true, role: true, displayName: true, isSystem: true } },
    },
  });
  if (!record || record.user.isSystem) throw new AppError("unauthenticated", "The API token is not recognised.");
  if (record.revokedAt) throw new AppError("unauthenticated", "The API token has been revoked; create a new one on /account/tokens.");
  if (record.expiresAt && record.expiresAt.getTime() <= now.getTime()) {
    throw new AppError("unauthenticated", "The API token has expired; create a new one on /account/tokens.");
  }
  if (!record.lastUsedAt || now.getTime() - record.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db.apiToken.update({ where: { id: record.id }, data: { lastUsedAt: now } });
  }
  return {
    kind: "user",
    userId: record.user.id,
    role: record.user.role,
    displayName: record.user.displayName,
    via: "token",
    tokenId: record.id,
  };
}
