import "server-only";
import { displayNameSchema, emailSchema } from "@/lib/core/accounts/auth-schemas";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { isUniqueViolation } from "@/lib/domain/accounts/is-unique-violation";
import { recordAudit } from "@/lib/platform/audit/record-audit";

type LinkOAuthAccountOptions = {
  provider: string;
  providerAccountId: string;
  /** Must be an address the provider has verified (see lib/domain/accounts/github-provider.ts). */
  verifiedEmail: string;
  /** The provider's name for the person, used as the display name of a new account. */
  name: string | null | undefined;
};

function displayNameFrom(name: string | null | undefined, email: string): string {
  const candidates = [name, email.split("@")[0]];
  for (const candidate of candidates) {
    const parsed = displayNameSchema.safeParse((candidate ?? "").slice(0, 60));
    if (parsed.success) return parsed.data;
  }
  return "Participant";
}

/**
 * Finds the account behind an external identity, linking it by verified email
 * to an existing account or creating a new participant. Returns the user id.
 */
export async function linkOAuthAccount(options: LinkOAuthAccountOptions): Promise<string> {
  const key = { provider: options.provider, providerAccountId: options.providerAccountId };
  const linked = await db.oAuthAccount.findUnique({ where: { provider_providerAccountId: key }, select: { userId: true } });
  if (linked) return linked.userId;

  const email = emailSchema.parse(options.verifiedEmail);
  try {
    return await db.$transaction(async (tx) => {
      const existing = await tx.user.findUnique({ where: { email }, select: { id: true, isSystem: true } });
      if (existing?.isSystem) throw new AppError("forbidden", "This email belongs to a system account.");
      const userId =
        existing?.id ??
        (await tx.user.create({ data: { email, displayName: displayNameFrom(options.name, email) }, select: { id: true } })).id;
      await tx.oAuthAccount.create({ data: { ...key, userId } });
      await recordAudit(tx, {
          actorId: userId,
          action: existing ? "user.oauth_linked" : "user.created_via_oauth",
          targetType: "User",
          targetId: userId,
          details: { provider: options.provider },
        });
      return userId;
    });
  } catch (error) {
    // Two first sign-ins at once: the other request linked it; use its result.
    if (!isUniqueViolation(error)) throw error;
    const winner = await db.oAuthAccount.findUnique({ where: { provider_providerAccountId: key }, select: { userId: true } });
    if (!winner) throw error;
    return winner.userId;
  }
}

/** The user behind an already linked identity (null when not linked). */
export async function findUserIdByOAuthAccount(provider: string, providerAccountId: string): Promise<string | null> {
  const linked = await db.oAuthAccount.findUnique({
    where: { provider_providerAccountId: { provider, providerAccountId } },
    select: { userId: true },
  });
  return linked?.userId ?? null;
}
