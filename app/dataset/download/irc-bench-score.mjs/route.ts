import { errorResponse } from "@/lib/http";
import { CLI_TOOLS, serveCliTool } from "@/lib/releases/cli-downloads";

export const dynamic = "force-dynamic";

/** GET /dataset/download/irc-bench-score.mjs — the offline scorer, one file for plain Node >= 20 (protocol section 11). */
export async function GET(request: Request) {
  try {
    return await serveCliTool(request, CLI_TOOLS.scorer);
  } catch (error) {
    return errorResponse(error);
  }
}
