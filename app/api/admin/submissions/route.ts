import { route } from "@/lib/web/http/route";
import { listReviewQueue } from "@/lib/domain/publication/list-review-queue";

export const dynamic = "force-dynamic";

/** GET /api/admin/submissions — the review queue (pending requests, then the latest 100), with each test file's probe_flags; maintainers only. */
export const GET = route({ auth: "maintainer" }, async ({ actor }) => listReviewQueue(actor));
