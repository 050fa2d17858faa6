import { route } from "@/lib/http/route";
import { serveScorer } from "@/lib/releases/scorer-download";

export const dynamic = "force-dynamic";

/** GET /dataset/download/irc-bench-score.mjs — the offline scorer, one file for plain Node >= 20 (protocol section 11). */
export const GET = route({ auth: "public" }, async ({ request }) => serveScorer(request));
