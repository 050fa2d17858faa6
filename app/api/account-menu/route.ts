import { accountMenuOf, ACCOUNT_MENU_CACHE_CONTROL } from "@/lib/domain/accounts/account-menu";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { route } from "@/lib/web/http/route";

export const dynamic = "force-dynamic";

/**
 * GET /api/account-menu: who the browser session belongs to, for the site
 * header's account menu ({ signedIn: false } without one). Anyone may ask, so
 * the route is "public"; the answer is the caller's own session (an API token
 * signs no browser in: it gets { signedIn: false }), never stored by any cache. The web server
 * answers it itself the same way (lib/web/public-cache/public-fast-path.ts), unless the request has an
 * Authorization header or the fast path fails; this route answers those, and under plain `next start`.
 */
export const GET = route({ auth: "public" }, async ({ request }) => {
  const menu = accountMenuOf(await getActor(request));
  return Response.json(menu, { headers: { "Cache-Control": ACCOUNT_MENU_CACHE_CONTROL, Vary: "Cookie" } });
});
