import { z } from "zod";
import { route } from "@/lib/web/http/route";
import { PAGE_REDIRECT_CACHE_CONTROL, PAGE_REDIRECT_STATUS, pageAddressOf } from "@/lib/web/public-cache/page-address";
import { servePublicPage, serveUncachedPage } from "@/lib/web/public-cache/public-page-cache";

export const dynamic = "force-dynamic";

const publicPageQuerySchema = z.object({ path: z.string().max(2000, { error: "query parameter \"path\" is too long" }) });

/**
 * GET /api/public-page?path=/leaderboard%3Ftrack%3Dclosed: a public page as
 * anyone without an account sees it, from the shared page cache. The
 * production server (scripts/server/web-server.mjs) rewrites anonymous page requests
 * here; called directly it serves the same anonymous pages, nothing else.
 * Only a view's canonical address is served from (and kept in) the cache;
 * any other spelling of it (unknown parameters, bad values, another order,
 * explicit defaults) is redirected there, and a page that does not exist is
 * rendered as the app's 404 and never kept (lib/core/leaderboard/page-queries.ts).
 */
export const GET = route({ auth: "public", query: publicPageQuerySchema }, async ({ request, query }) => {
  const address = pageAddressOf(query.path);
  if (address === null) {
    return new Response("Not a cached public page.", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-store" } });
  }
  if (address.kind === "redirect") {
    return new Response(null, { status: PAGE_REDIRECT_STATUS, headers: { Location: address.path, "Cache-Control": PAGE_REDIRECT_CACHE_CONTROL } });
  }
  if (address.kind === "not-found") return serveUncachedPage(query.path);
  return servePublicPage(request, address.path);
});
