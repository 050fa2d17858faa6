import { errorResponse } from "@/lib/http";
import { servePublicPage } from "@/lib/leaderboard/public-page-cache";
import { canonicalPagePath } from "@/lib/leaderboard/public-page-routing.mjs";

export const dynamic = "force-dynamic";

/**
 * GET /api/public-page?path=/leaderboard%3Ftrack%3Dclosed: a public page as
 * anyone without an account sees it, from the shared page cache. The
 * production server (scripts/web-server.mjs) rewrites anonymous page requests
 * here; called directly it serves the same anonymous pages, nothing else.
 */
export async function GET(request: Request): Promise<Response> {
  try {
    const target = new URL(request.url).searchParams.get("path") ?? "";
    const pagePath = canonicalPagePath(target);
    if (pagePath === null) {
      return new Response("Not a cached public page.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
    }
    return await servePublicPage(request, pagePath);
  } catch (error) {
    return errorResponse(error);
  }
}
