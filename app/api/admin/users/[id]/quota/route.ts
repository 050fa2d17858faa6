import { route } from "@/lib/web/http/route";
import { adjustTestQuota } from "@/lib/domain/quotas/adjust-test-quota";
import { quotaAdjustmentSchema } from "@/lib/core/accounts/user-schemas";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/users/:id/quota (maintainer session only), one of:
 * - {action: "grant", amount: 1..100, reason}: extra test submissions on the active release;
 * - {action: "refund", submissionId, reason}: give back one test submission's charge (409 if it was never charged or is refunded).
 * Both are audited and shown on the participant's quota ledger.
 */
export const POST = route({ auth: "maintainer", params: ["id"], body: quotaAdjustmentSchema }, async ({ actor, params, body }) =>
  adjustTestQuota({ actor, userId: params.id, adjustment: body }),
);
