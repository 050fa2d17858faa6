import { NextResponse } from "next/server";
import { requireUser, type UserActor } from "@/lib/auth/actor";
import { getActor } from "@/lib/auth/get-actor";
import { parseInput, readJsonBody } from "@/lib/auth/parse-input";
import { errorResponse } from "@/lib/http";
import { getProfile, type Profile } from "@/lib/users/get-profile";
import { profilePatchSchema } from "@/lib/users/schemas";
import { updateProfile } from "@/lib/users/update-profile";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/** The email is left out on purpose: scripts log this output. */
function toMe(profile: Profile, user: UserActor) {
  return { id: profile.id, displayName: profile.displayName, affiliation: profile.affiliation, role: profile.role, via: user.via };
}

/** GET /api/me: who the session or API token belongs to. */
export async function GET(request: Request) {
  try {
    const user = requireUser(await getActor(request));
    return NextResponse.json(toMe(await getProfile({ actor: user }), user), { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}

/** PATCH /api/me {displayName?, affiliation?}: edit your own profile (session or token). */
export async function PATCH(request: Request) {
  try {
    const user = requireUser(await getActor(request));
    const patch = parseInput(profilePatchSchema, await readJsonBody(request));
    return NextResponse.json(toMe(await updateProfile({ actor: user, ...patch }), user), { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}
