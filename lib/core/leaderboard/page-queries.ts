import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { leaderboardFiltersSchema } from "./filter-rows";
import { entryIdSchema, matrixPageQuerySchema } from "./query-schemas";
import { defaultDescending, tableQuerySchema } from "./table-query";
import { LEADERBOARD_TRACKS, METRIC_LABELS, TYPE_SLUGS, typeFromSlug } from "./views";

/**
 * The one address of each view of the cached public pages (/leaderboard,
 * /leaderboard/types/TYPE, /leaderboard/matrix, /entries/ID): only the
 * parameters the page reads, each with a value that changes what it shows,
 * in alphabetical order, spelled as the page's own links spell them, and
 * without the ones equal to their defaults. The shared page cache
 * (lib/web/public-cache/public-page-cache.ts) keeps bodies under this address
 * only: any other spelling of a view is redirected to it, so no query string
 * a client makes up (an unknown parameter, a bad value, another order) is
 * ever rendered and kept as a page of its own.
 *
 * The pages read their queries leniently (a bad value shows the default), so
 * the redirect never changes what the reader sees: it drops what the page
 * would ignore anyway.
 */

export type PageAddress =
  /** The address is canonical: serve (and keep) the page under it. */
  | { kind: "canonical"; path: string }
  /** Another spelling of a view: redirect to `path`, its canonical address. */
  | { kind: "redirect"; path: string }
  /** No such page (an unknown entity type, a malformed entry id): the app answers 404, nothing is kept. */
  | { kind: "not-found" };

type Pairs = [string, string][];

/** Every column a leaderboard table can be sorted by, in any view (lib/core/leaderboard/table-query.ts's sortableColumns). */
const SORT_COLUMNS: ReadonlySet<string> = new Set([
  "rank",
  "system",
  "track",
  "n",
  "params",
  "weights",
  "date",
  "significance",
  ...Object.keys(METRIC_LABELS),
  ...ENTITY_TYPES.map((type) => `type:${type}`),
]);

/** The first value of each parameter, as the pages read them (firstValues in query-schemas.ts). */
function firstValues(params: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of params) if (!(key in out)) out[key] = value;
  return out;
}

/** The track a page shows; "open" (the default) is left out. */
function trackPair(value: string | undefined): Pairs {
  return value !== undefined && value !== "open" && (LEADERBOARD_TRACKS as readonly string[]).includes(value) ? [["track", value]] : [];
}

/** The query of a leaderboard table view (/leaderboard, /leaderboard/types/TYPE): the table's parameters that differ from their defaults. */
function tableViewPairs(values: Record<string, string>): Pairs {
  const query = tableQuerySchema.parse(values);
  const defaults = tableQuerySchema.parse({});
  const pairs: Pairs = trackPair(values.track);
  for (const key of Object.keys(leaderboardFiltersSchema.shape) as (keyof typeof leaderboardFiltersSchema.shape)[]) {
    if (query[key] !== defaults[key]) pairs.push([key, query[key]]);
  }
  if (query.scope !== defaults.scope) pairs.push(["scope", query.scope]);
  if (query.types !== defaults.types) pairs.push(["types", query.types]);
  if (query.page !== defaults.page) pairs.push(["page", String(query.page)]);
  // A sort the table does not know is ignored (the view's default); a direction only matters with a sort.
  if (query.sort !== undefined && SORT_COLUMNS.has(query.sort)) {
    pairs.push(["sort", query.sort]);
    if (query.dir !== undefined && (query.dir === "desc") !== defaultDescending(query.sort)) pairs.push(["dir", query.dir]);
  }
  return pairs;
}

/** The matrix's query; null when its type is unknown (the page is a 404). */
function matrixPairs(values: Record<string, string>): Pairs | null {
  const parsed = matrixPageQuerySchema.safeParse(values);
  if (!parsed.success) return null;
  const pairs: Pairs = trackPair(values.track);
  if (parsed.data.type !== undefined) pairs.push(["type", TYPE_SLUGS[parsed.data.type]]);
  for (const key of ["approach", "weights", "source", "cutoff", "tier"] as const) {
    const value = parsed.data[key];
    if (value !== undefined) pairs.push([key, value]);
  }
  return pairs;
}

function addressOf(pathname: string, pairs: Pairs): string {
  if (pairs.length === 0) return pathname;
  const sorted = [...pairs].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${pathname}?${new URLSearchParams(sorted).toString()}`;
}

function decodeSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

/** The canonical path and query of a page, or null when the path is no cached page (or unknown: then "not-found"). */
function canonicalOf(pathname: string, values: Record<string, string>): string | "not-found" | null {
  if (pathname === "/leaderboard") return addressOf(pathname, tableViewPairs(values));
  if (pathname === "/leaderboard/matrix") {
    const pairs = matrixPairs(values);
    return pairs === null ? "not-found" : addressOf(pathname, pairs);
  }
  const typeSlug = /^\/leaderboard\/types\/([^/]+)$/.exec(pathname)?.[1];
  if (typeSlug !== undefined) {
    const type = typeFromSlug(decodeSegment(typeSlug) ?? "");
    return type === null ? "not-found" : addressOf(`/leaderboard/types/${TYPE_SLUGS[type]}`, tableViewPairs(values));
  }
  const entryId = /^\/entries\/([^/]+)$/.exec(pathname)?.[1];
  if (entryId !== undefined) {
    // The entry page reads no query at all.
    return entryIdSchema.safeParse(entryId).success ? pathname : "not-found";
  }
  return null;
}

/**
 * Where a request for `pathname` with `search` (as sent: "" or "?a=b") belongs,
 * or null when it is none of the cached pages. `pathname` is the path as sent,
 * still percent-encoded.
 */
export function publicPageAddress(pathname: string, search: string): PageAddress | null {
  const canonical = canonicalOf(pathname, firstValues(new URLSearchParams(search)));
  if (canonical === null) return null;
  if (canonical === "not-found") return { kind: "not-found" };
  return canonical === `${pathname}${search}` ? { kind: "canonical", path: canonical } : { kind: "redirect", path: canonical };
}
