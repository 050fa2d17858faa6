import { z } from "zod";
import { route } from "@/lib/web/http/route";
import { servePublicPage } from "@/lib/web/public-cache/public-page-cache";
import { canonicalPagePath } from "@/lib/web/public-cache/public-page-routing.mjs";

export const dynamic = "force-dynamic";

const publicPageQuerySchema = z.object({ path: z.string().max(2000, { error: "query parameter \"path\" is too long" }) });

/**
 * GET /api/public-page?path=/leaderboard%3Ftrack%3Dclosed: a public page as
 * anyone without an account sees it, from the shared page cache. The
 * production server (scripts/server/web-server.mjs) rewrites anonymous page requests
 * here; called directly it serves the same anonymous pages, nothing else.
 */
export const GET = route({ auth: "public", query: publicPageQuerySchema }, async ({ request, query }) => {
  const pagePath = canonicalPagePath(query.path);
  if (pagePath === null) {
    return new Response("Not a cached public page.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  return servePublicPage(request, pagePath);
});
