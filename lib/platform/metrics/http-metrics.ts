import { readFileSync } from "node:fs";
import http, { type IncomingMessage, type ServerResponse } from "node:http";
import path from "node:path";
import { z } from "zod";
import { createRouteMatcher, pathnameOf, type RouteMatcher } from "@/lib/platform/metrics/route-label";
import { webMetrics } from "@/lib/platform/metrics/web-metrics";

const INSTALLED = Symbol.for("irc-bench.http-metrics");
type InstalledGlobal = typeof globalThis & { [INSTALLED]?: boolean };

const routesManifestSchema = z.object({
  staticRoutes: z.array(z.object({ page: z.string(), regex: z.string() })).default([]),
  dynamicRoutes: z.array(z.object({ page: z.string(), regex: z.string() })).default([]),
});

/** The route patterns of the running build (NEXT_DIST_DIR, default .next); none (every path "unmatched") when it cannot be read. */
function loadRouteMatcher(distDir: string = process.env.NEXT_DIST_DIR ?? ".next"): RouteMatcher {
  try {
    const manifest = routesManifestSchema.parse(JSON.parse(readFileSync(path.resolve(distDir, "routes-manifest.json"), "utf8")));
    return createRouteMatcher(manifest.staticRoutes, manifest.dynamicRoutes);
  } catch {
    return createRouteMatcher([], []);
  }
}

/** Observes one request when its response ends (or its client goes away: status "aborted"). */
function observeRequest(request: IncomingMessage, response: ServerResponse, routeOf: RouteMatcher): void {
  const startedAt = process.hrtime.bigint();
  response.once("close", () => {
    const seconds = Number(process.hrtime.bigint() - startedAt) / 1e9;
    const status = response.writableFinished ? String(response.statusCode) : "aborted";
    webMetrics().httpRequestDuration.observe({ method: request.method ?? "?", route: routeOf(pathnameOf(request.url)), status }, seconds);
  });
}

/**
 * Times every request of every http.Server in this process (the prototype's
 * emit, like lib/platform/rate-limit/socket-address.ts, so it reaches the server Next.js
 * made before this ran). Called once from instrumentation.ts; idempotent.
 */
export function installHttpMetrics(routeOf: RouteMatcher = loadRouteMatcher()): void {
  const root = globalThis as InstalledGlobal;
  if (root[INSTALLED]) return;
  root[INSTALLED] = true;
  const originalEmit = http.Server.prototype.emit;
  const emit = originalEmit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function emitWithTiming(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    const [request, response] = args;
    if (event === "request" && request instanceof http.IncomingMessage && response instanceof http.ServerResponse) observeRequest(request, response, routeOf);
    return emit.call(this, event, ...args);
  } as typeof originalEmit;
}
