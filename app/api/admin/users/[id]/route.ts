import { NextResponse } from "next/server";
import { requireMaintainer } from "@/lib/auth/actor";
import { getActor } from "@/lib/auth/get-actor";
import { parseInput, readJsonBody } from "@/lib/auth/parse-input";
import { errorResponse } from "@/lib/http";
import { changeUserRole } from "@/lib/users/change-user-role";
import { userAdminPatchSchema } from "@/lib/users/schemas";
import { setUserApproval } from "@/lib/users/set-user-approval";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/admin/users/:id (maintainer session only), one of:
 * - {role: "PARTICIPANT" | "MAINTAINER", reason?}: promote or demote (409 for the last maintainer);
 * - {approved: true | false, reason?}: approve the account for test submissions
 *   (TEST_REQUIRES_APPROVAL=1) or take the approval back.
 */
export async function PATCH(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const actor = requireMaintainer(await getActor(request));
    const { id } = await context.params;
    const input = parseInput(userAdminPatchSchema, await readJsonBody(request));
    const change =
      "approved" in input
        ? await setUserApproval({ actor, userId: id, isApproved: input.approved, reason: input.reason })
        : await changeUserRole({ actor, userId: id, role: input.role, reason: input.reason });
    return NextResponse.json(change, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
