import { DATASET_API } from "@/lib/web/api/operations/dataset";
import { route } from "@/lib/web/http/route";
import { findSampleSplit } from "@/lib/domain/releases/find-sample-split";

export const dynamic = "force-dynamic";

/** GET /api/dataset/sample-split?id=... — which split of the active release a sample id belongs to (public: ids are in the downloads). */
export const GET = route(DATASET_API.getSampleSplit.input, async ({ query }) => findSampleSplit(query.id));
