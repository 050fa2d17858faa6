import { errorResponse } from "@/lib/http";
import { CLI_TOOLS, serveCliTool } from "@/lib/releases/cli-downloads";

export const dynamic = "force-dynamic";

/** GET /dataset/download/irc-bench-client.mjs — the command-line client (login, submit --wait, status, list, quota, download), one file for plain Node >= 20. */
export async function GET(request: Request) {
  try {
    return await serveCliTool(request, CLI_TOOLS.client);
  } catch (error) {
    return errorResponse(error);
  }
}
