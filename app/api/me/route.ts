import { API } from "@/lib/api/operations";
import type { UserActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/route";
import { getProfile, type Profile } from "@/lib/users/get-profile";
import { updateProfile } from "@/lib/users/update-profile";

export const dynamic = "force-dynamic";

/** The email is left out on purpose: scripts log this output. */
function toMe(profile: Profile, user: UserActor) {
  return { id: profile.id, displayName: profile.displayName, affiliation: profile.affiliation, role: profile.role, via: user.via };
}

/** GET /api/me: who the session or API token belongs to. */
export const GET = route(API.getMe.input, async ({ actor }) => toMe(await getProfile({ actor }), actor));

/** PATCH /api/me {displayName?, affiliation?}: edit your own profile (session or token). */
export const PATCH = route(API.updateMe.input, async ({ actor, body }) => toMe(await updateProfile({ actor, ...body }), actor));
