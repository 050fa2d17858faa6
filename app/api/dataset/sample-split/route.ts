import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { findSampleSplit } from "@/lib/releases/find-sample-split";

export const dynamic = "force-dynamic";

/** GET /api/dataset/sample-split?id=... — which split of the active release a sample id belongs to (public: ids are in the downloads). */
export const GET = route(API.getSampleSplit.input, async ({ query }) => findSampleSplit(query.id));
