import { route } from "@/lib/web/http/route";
import { changeUserRole } from "@/lib/domain/accounts/change-user-role";
import { userAdminPatchSchema } from "@/lib/core/accounts/user-schemas";
import { setUserApproval } from "@/lib/domain/accounts/set-user-approval";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/admin/users/:id (maintainer session only), one of:
 * - {role: "PARTICIPANT" | "MAINTAINER", reason?}: promote or demote (409 for the last maintainer);
 * - {approved: true | false, reason?}: approve the account for test submissions
 *   (needed on releases of 1,000 test samples or more by default: lib/domain/accounts/test-approval.ts) or take the approval back.
 */
export const PATCH = route({ auth: "maintainer", params: ["id"], body: userAdminPatchSchema }, async ({ actor, params, body }) => {
  const userId = params.id;
  if ("approved" in body) return setUserApproval({ actor, userId, isApproved: body.approved, reason: body.reason });
  return changeUserRole({ actor, userId, role: body.role, reason: body.reason });
});
