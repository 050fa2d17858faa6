import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { CLI_TOOLS, serveCliTool } from "@/lib/releases/cli-downloads";

export const dynamic = "force-dynamic";

/** GET /dataset/download/irc-bench-score.mjs — the offline scorer, one file for plain Node >= 20 (protocol section 11). */
export const GET = route(API.downloadScorer.input, async ({ request }) => serveCliTool(request, CLI_TOOLS.scorer));
