import { readdir } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as NodeReadableStream } from "node:stream/web";
import { REPO_ROOT } from "./processes";

/**
 * A real HTTP server on this machine that answers with the app's own route
 * handlers (app/api/** and app/dataset/download/**, found by walking the
 * folders as Next.js does): the request is a web Request with the streamed
 * body, the answer is written back as it is, headers and status included.
 * The handlers talk to the test PostgreSQL and Redis; only the Next.js server
 * around them is left out (no pages, no middleware: these routes have none).
 */

type Handler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response> | Response;
type RouteModule = Partial<Record<string, Handler>>;
type Route = { segments: string[]; file: string };

async function findRoutes(dir: string): Promise<Route[]> {
  const routes: Route[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) routes.push(...(await findRoutes(full)));
    else if (entry.name === "route.ts") {
      routes.push({ segments: path.relative(path.join(REPO_ROOT, "app"), dir).split(path.sep), file: full });
    }
  }
  return routes;
}

/** The params of a match, or null. Static segments must match exactly; [x] one segment; [...x] the rest. */
function matchRoute(route: Route, parts: string[]): Record<string, string | string[]> | null {
  const params: Record<string, string | string[]> = {};
  for (let index = 0; index < route.segments.length; index += 1) {
    const segment = route.segments[index] ?? "";
    const catchAll = /^\[\.\.\.(.+)\]$/.exec(segment);
    if (catchAll?.[1]) {
      if (index >= parts.length) return null;
      params[catchAll[1]] = parts.slice(index);
      return params;
    }
    const part = parts[index];
    if (part === undefined) return null;
    const dynamic = /^\[(.+)\]$/.exec(segment);
    if (dynamic?.[1]) params[dynamic[1]] = part;
    else if (segment !== part) return null;
  }
  return route.segments.length === parts.length ? params : null;
}

/** More static segments first, as Next.js prefers /dataset/download/irc-bench-client.mjs over /dataset/download/[file]. */
function specificity(route: Route): number {
  return route.segments.filter((segment) => !segment.startsWith("[")).length * 10 - route.segments.filter((segment) => segment.startsWith("[...")).length;
}

function toRequest(incoming: IncomingMessage, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(incoming.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item);
    else if (value !== undefined) headers.set(name, value);
  }
  const hasBody = incoming.method !== "GET" && incoming.method !== "HEAD";
  return new Request(new URL(incoming.url ?? "/", origin), {
    method: incoming.method,
    headers,
    body: hasBody ? (Readable.toWeb(incoming) as ReadableStream<Uint8Array>) : undefined,
    // @ts-expect-error -- undici needs duplex for a streamed request body; lib.dom's RequestInit does not know it.
    duplex: hasBody ? "half" : undefined,
  });
}

async function writeResponse(response: Response, outgoing: ServerResponse): Promise<void> {
  const headers: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    headers[name] = name === "set-cookie" ? response.headers.getSetCookie() : value;
  });
  outgoing.writeHead(response.status, headers);
  if (response.body === null) {
    outgoing.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), outgoing);
}

export type RouteServer = { url: string; close: () => Promise<void>; requests: string[] };

/** Starts the server on `port` (0: any free port) of 127.0.0.1. */
export async function startRouteServer(port = 0): Promise<RouteServer> {
  const routes = [...(await findRoutes(path.join(REPO_ROOT, "app", "api"))), ...(await findRoutes(path.join(REPO_ROOT, "app", "dataset")))].sort(
    (a, b) => specificity(b) - specificity(a),
  );
  const modules = new Map<string, Promise<RouteModule>>();
  const requests: string[] = [];
  let origin = "";
  const server: Server = createServer((incoming, outgoing) => {
    const url = new URL(incoming.url ?? "/", origin);
    requests.push(`${incoming.method} ${url.pathname}`);
    const parts = url.pathname.split("/").filter((part) => part !== "").map(decodeURIComponent);
    const found = routes.map((route) => ({ route, params: matchRoute(route, parts) })).find((candidate) => candidate.params !== null);
    void (async () => {
      if (!found?.params) {
        outgoing.writeHead(404, { "content-type": "text/plain" }).end(`no route for ${url.pathname}`);
        return;
      }
      if (!modules.has(found.route.file)) modules.set(found.route.file, import(found.route.file) as Promise<RouteModule>);
      const handler = (await modules.get(found.route.file))?.[incoming.method ?? "GET"];
      if (handler === undefined) {
        outgoing.writeHead(405, { "content-type": "text/plain" }).end(`${incoming.method} is not allowed on ${url.pathname}`);
        return;
      }
      const response = await handler(toRequest(incoming, origin), { params: Promise.resolve(found.params) });
      await writeResponse(response, outgoing);
    })().catch((error: unknown) => {
      console.error("[route-server]", error);
      if (!outgoing.headersSent) outgoing.writeHead(500, { "content-type": "text/plain" });
      outgoing.end("route-server: the handler threw");
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
