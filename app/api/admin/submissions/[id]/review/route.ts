import { route } from "@/lib/web/http/route";
import { reviewSubmission } from "@/lib/domain/publication/review-submission";

export const dynamic = "force-dynamic";

/**
 * POST /api/admin/submissions/:id/review — JSON {action: approve|reject|hide|rescore|mark-baseline|unmark-baseline,
 * reason?, baselineLabel? (required for mark-baseline), acknowledge? (ids of raised probe flags)}; maintainers only.
 * The operation parses the action (its schema is lib/core/submissions/schemas.ts).
 */
export const POST = route({ auth: "maintainer", params: ["id"], body: "json" }, async ({ actor, params, body }) => reviewSubmission(actor, params.id, body));
