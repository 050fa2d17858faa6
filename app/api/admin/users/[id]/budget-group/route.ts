import { route } from "@/lib/web/http/route";
import { changeBudgetGroup } from "@/lib/domain/accounts/change-budget-group";
import { budgetGroupChangeSchema } from "@/lib/core/accounts/user-schemas";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/users/:id/budget-group (maintainer session only), one of:
 * - {action: "link", account: email or id, reason}: the two approved accounts (and their groups) share one entries budget (protocol §12);
 * - {action: "unlink", reason}: the account leaves its group.
 * Audited; answers the account's group and its members.
 */
export const POST = route({ auth: "maintainer", params: ["id"], body: budgetGroupChangeSchema }, async ({ actor, params, body }) =>
  changeBudgetGroup({ actor, userId: params.id, change: body }),
);
