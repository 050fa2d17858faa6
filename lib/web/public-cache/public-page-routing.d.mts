export declare const PUBLIC_PAGE_ROUTE: string;
export declare function publicPageTarget(target: string): { pathname: string; search: string } | null;
export declare function hasRouterHeader(headers: Record<string, string | string[] | undefined>): boolean;
export declare function hasSessionCookie(header: string | string[] | undefined): boolean;
export declare function cacheablePageRequest(request: {
  method?: string;
  url?: string;
  headers: Record<string, string | string[] | undefined>;
}): string | null;
