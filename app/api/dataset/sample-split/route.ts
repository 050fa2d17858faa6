import { z } from "zod";
import { route } from "@/lib/http/route";
import { freeText } from "@/lib/validation/text";
import { findSampleSplit } from "@/lib/releases/find-sample-split";

export const dynamic = "force-dynamic";

const querySchema = z.object({ id: freeText().min(1).max(200) });

/** GET /api/dataset/sample-split?id=... — which split of the active release a sample id belongs to (public: ids are in the downloads). */
export const GET = route({ auth: "public", query: querySchema }, async ({ query }) => findSampleSplit(query.id));
