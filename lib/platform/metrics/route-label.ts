/**
 * The route pattern a request path belongs to, for the HTTP latency metric's
 * `route` label: Next.js's own patterns from its build's routes manifest
 * ("/submissions/[id]"), so the label has as many values as the app has
 * routes, never one per submission id.
 */
type RoutePattern = { page: string; regex: string };
export type RouteMatcher = (pathname: string) => string;

export const UNMATCHED_ROUTE = "unmatched";
const NEXT_ASSETS_ROUTE = "/_next/*";

/** Static routes first (as Next.js matches them), then dynamic ones in manifest order. */
export function createRouteMatcher(staticRoutes: readonly RoutePattern[], dynamicRoutes: readonly RoutePattern[]): RouteMatcher {
  const exact = new Map(staticRoutes.map((route) => [route.page, route.page]));
  const patterns = dynamicRoutes.map((route) => ({ page: route.page, regex: new RegExp(route.regex) }));
  return (pathname) => {
    if (pathname.startsWith("/_next/")) return NEXT_ASSETS_ROUTE;
    const trimmed = pathname.length > 1 && pathname.endsWith("/") ? pathname.slice(0, -1) : pathname;
    const page = exact.get(trimmed);
    if (page !== undefined) return page;
    return patterns.find((pattern) => pattern.regex.test(trimmed))?.page ?? UNMATCHED_ROUTE;
  };
}

/** The path of a request target ("/a/b?c" -> "/a/b"); anything unparsable is unmatched. */
export function pathnameOf(url: string | undefined): string {
  if (!url) return "";
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
