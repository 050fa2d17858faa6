import { DATASET_API } from "@/lib/web/api/operations/dataset";
import { route } from "@/lib/web/http/route";
import { CLI_TOOLS, serveCliTool } from "@/lib/domain/releases/cli-downloads";

export const dynamic = "force-dynamic";

/** GET /dataset/download/irc-bench-client.mjs — the command-line client (login, submit --wait, status, list, quota, download), one file for plain Node >= 20. */
export const GET = route(DATASET_API.downloadClient.input, async ({ request }) => serveCliTool(request, CLI_TOOLS.client));
