import "server-only";
import { NextResponse } from "next/server";
import type { z } from "zod";
import { requireMaintainer, requireSession, requireUser, type UserActor } from "@/lib/domain/accounts/actor";
import { AppError } from "@/lib/core/errors";
import { errorResponse } from "./error-response";
import { parseInput, parseQuery, readJsonBody, rejectNulBytes } from "../../core/input/parse-input";

/**
 * The one wrapper of every route handler in app/api (and the dataset
 * downloads). It owns what each handler would otherwise repeat:
 *
 * - who may call the route at all (`auth`, the rule in CODE_STYLE.md):
 *   "public" reads no credentials; "user" needs a session or an API token;
 *   "session" a browser session (no token); "maintainer" a maintainer's
 *   session. Whether the caller may touch one particular object (owner or
 *   maintainer, else 404) is the operation's check: only it has the row.
 * - parsing the route params, the query string (`query`, strict: an unknown
 *   parameter is a 422) and the JSON body (`body`: a schema, or "json" when
 *   the operation parses it itself after checking ownership). Problems are
 *   sentences naming the field; a NUL character anywhere is a 422, since
 *   PostgreSQL cannot store it.
 * - mapping a thrown AppError to its HTTP status (lib/core/errors.ts), anything
 *   else to a 500 with no internals.
 *
 * A handler returns a Response, or a value sent as JSON with Cache-Control: no-store.
 */

type RouteAuth = "public" | "user" | "session" | "maintainer";

type BodyOption = z.ZodType | "json" | undefined;
type QueryOption = z.ZodType | undefined;

type ActorOf<A extends RouteAuth> = A extends "public" ? null : UserActor;
type BodyOf<B extends BodyOption> = B extends z.ZodType ? z.output<B> : B extends "json" ? unknown : undefined;
type QueryOf<Q extends QueryOption> = Q extends z.ZodType ? z.output<Q> : undefined;

type RouteOptions<A extends RouteAuth, Q extends QueryOption, B extends BodyOption, P extends string> = {
  auth: A;
  /** The dynamic segments of the route's folder name (`[id]`), read as strings. */
  params?: readonly P[];
  query?: Q;
  body?: B;
};

type RouteInput<A extends RouteAuth, Q extends QueryOption, B extends BodyOption, P extends string> = {
  request: Request;
  actor: ActorOf<A>;
  params: Record<P, string>;
  query: QueryOf<Q>;
  body: BodyOf<B>;
};

type RouteContext = { params: Promise<Record<string, string | string[] | undefined>> };

const NO_STORE = { "Cache-Control": "no-store" };

async function authorize(auth: RouteAuth, request: Request): Promise<UserActor | null> {
  if (auth === "public") return null;
  // Loaded on first use: a public route (the scorer download) never needs the database to answer.
  const { getActor } = await import("@/lib/domain/accounts/get-actor");
  const actor = await getActor(request);
  if (auth === "maintainer") return requireMaintainer(actor);
  if (auth === "session") return requireSession(actor);
  return requireUser(actor);
}

async function readParams<P extends string>(names: readonly P[], context: RouteContext | undefined): Promise<Record<P, string>> {
  const raw = context ? await context.params : {};
  const params = {} as Record<P, string>;
  for (const name of names) {
    const value = raw[name];
    // Next.js only calls the handler with its folder's segments; a missing one is a route that does not exist.
    if (value === undefined) throw new AppError("not_found", "Not found.");
    params[name] = Array.isArray(value) ? value.join("/") : value;
  }
  rejectNulBytes(params, "field");
  return params;
}

async function readBody(option: z.ZodType | "json", request: Request): Promise<unknown> {
  const json = await readJsonBody(request);
  if (option !== "json") return parseInput(option, json);
  rejectNulBytes(json);
  return json;
}

/** JSON with Cache-Control: no-store (answers about one caller must never be cached). */
export function jsonNoStore(value: unknown, init: { status?: number; headers?: Record<string, string> } = {}): NextResponse {
  return NextResponse.json(value, { status: init.status ?? 200, headers: { ...NO_STORE, ...init.headers } });
}

export function route<A extends RouteAuth, Q extends QueryOption = undefined, B extends BodyOption = undefined, P extends string = never>(
  options: RouteOptions<A, Q, B, P>,
  handler: (input: RouteInput<A, Q, B, P>) => Promise<Response | object>,
): (request: Request, context?: RouteContext) => Promise<Response> {
  return async (request, context) => {
    try {
      const params = await readParams(options.params ?? [], context);
      const actor = await authorize(options.auth, request);
      const query = options.query ? parseQuery(options.query, new URL(request.url).searchParams) : undefined;
      const body = options.body === undefined ? undefined : await readBody(options.body, request);
      const result = await handler({ request, actor, params, query, body } as RouteInput<A, Q, B, P>);
      return result instanceof Response ? result : jsonNoStore(result);
    } catch (error) {
      return errorResponse(error);
    }
  };
}
