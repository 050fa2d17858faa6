import { route } from "@/lib/web/http/route";
import { checkReproduction } from "@/lib/domain/publication/check-reproduction";
import { revokeReproduction } from "@/lib/domain/publication/revoke-reproduction";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/submissions/:id/reproduction — JSON {reproductionId, reason?}: compares the entry's per-sample
 * outcomes with a scored reproduction's on the server; same outcomes: tier "reproduced"; otherwise 422 with the
 * count that differ. DELETE — JSON {reason}: revokes the tier. Maintainers only; both audited.
 */
export const POST = route({ auth: "maintainer", params: ["id"], body: "json" }, async ({ actor, params, body }) => checkReproduction(actor, params.id, body));

export const DELETE = route({ auth: "maintainer", params: ["id"], body: "json" }, async ({ actor, params, body }) => revokeReproduction(actor, params.id, body));
