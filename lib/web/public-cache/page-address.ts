import { publicPageAddress, type PageAddress } from "@/lib/core/leaderboard/page-queries";
import { publicPageTarget } from "./public-page-routing.mjs";

/**
 * Where a request target for a cached public page belongs (canonical, a
 * redirect to the canonical address, or no such page), or null when it is not
 * one of them: the one rule of the route (app/api/public-page/route.ts) and
 * the web server's fast path (cached-body-request.ts).
 */
export function pageAddressOf(target: string): PageAddress | null {
  const parts = publicPageTarget(target);
  return parts === null ? null : publicPageAddress(parts.pathname, parts.search);
}

/**
 * Another spelling of a view is sent to its canonical address. Permanent, but
 * kept by browsers and proxies for an hour only: a later release may read a
 * parameter this one drops.
 */
export const PAGE_REDIRECT_STATUS = 308;
export const PAGE_REDIRECT_CACHE_CONTROL = "public, max-age=3600";
