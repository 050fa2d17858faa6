import { errorResponse } from "@/lib/http";
import { serveScorer } from "@/lib/releases/scorer-download";

export const dynamic = "force-dynamic";

/** GET /dataset/download/irc-bench-score.mjs — the offline scorer, one file for plain Node >= 20 (protocol section 11). */
export async function GET(request: Request) {
  try {
    return await serveScorer(request);
  } catch (error) {
    return errorResponse(error);
  }
}
