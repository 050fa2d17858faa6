import "server-only";
import { requireUser, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { Role } from "@/lib/platform/generated/prisma";

/** The actor's own account. The email is private: shown to its owner and to maintainers only. */
export type Profile = {
  id: string;
  email: string;
  displayName: string;
  affiliation: string;
  role: Role;
  createdAt: Date;
};

export async function getProfile(options: { actor: Actor }): Promise<Profile> {
  const user = requireUser(options.actor);
  const profile = await db.user.findUnique({
    where: { id: user.userId },
    select: { id: true, email: true, displayName: true, affiliation: true, role: true, createdAt: true },
  });
  if (!profile) throw new AppError("unauthenticated", "Your account no longer exists.");
  return profile;
}
