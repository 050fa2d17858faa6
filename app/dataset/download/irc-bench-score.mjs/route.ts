import { DATASET_API } from "@/lib/web/api/operations/dataset";
import { route } from "@/lib/web/http/route";
import { CLI_TOOLS, serveCliTool } from "@/lib/domain/releases/cli-downloads";

export const dynamic = "force-dynamic";

/** GET /dataset/download/irc-bench-score.mjs — the offline scorer, one file for plain Node >= 20 (protocol section 11). */
export const GET = route(DATASET_API.downloadScorer.input, async ({ request }) => serveCliTool(request, CLI_TOOLS.scorer));
