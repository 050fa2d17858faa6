import { ACCOUNT_API } from "@/lib/web/api/operations/account";
import type { UserActor } from "@/lib/domain/accounts/actor";
import { route } from "@/lib/web/http/route";
import { getProfile, type Profile } from "@/lib/domain/accounts/get-profile";
import { updateProfile } from "@/lib/domain/accounts/update-profile";

export const dynamic = "force-dynamic";

/** The email is left out on purpose: scripts log this output. */
function toMe(profile: Profile, user: UserActor) {
  return { id: profile.id, displayName: profile.displayName, affiliation: profile.affiliation, role: profile.role, via: user.via };
}

/** GET /api/me: who the session or API token belongs to. */
export const GET = route(ACCOUNT_API.getMe.input, async ({ actor }) => toMe(await getProfile({ actor }), actor));

/** PATCH /api/me {displayName?, affiliation?}: edit your own profile (session or token). */
export const PATCH = route(ACCOUNT_API.updateMe.input, async ({ actor, body }) => toMe(await updateProfile({ actor, ...body }), actor));
