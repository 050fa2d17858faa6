import "server-only";
import { requireUser, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { forgetPublicReadStamp } from "@/lib/domain/leaderboard/get-leaderboard";
import type { ProfilePatch } from "@/lib/core/accounts/user-schemas";
import type { Profile } from "@/lib/domain/accounts/get-profile";

/** Updates the actor's own display name and affiliation (omitted fields are kept); the leaderboard shows both. */
export async function updateProfile(options: { actor: Actor } & ProfilePatch): Promise<Profile> {
  const user = requireUser(options.actor);
  const profile = await db.user.update({
    where: { id: user.userId },
    data: { displayName: options.displayName, affiliation: options.affiliation },
    select: { id: true, email: true, displayName: true, affiliation: true, role: true, createdAt: true },
  });
  forgetPublicReadStamp();
  return profile;
}
