import http, { type IncomingMessage } from "node:http";

/**
 * The header that carries a request's socket address from the HTTP server to
 * route handlers and server actions. Next.js gives neither the socket: its
 * request objects carry headers only, and the X-Forwarded-For it fills in is
 * the client's own when the client sent one. So the web process replaces this
 * header on every incoming request, before Next.js sees it: a client cannot
 * set it.
 */
export const SOCKET_ADDRESS_HEADER = "x-irc-socket-address";

const INSTALLED = Symbol.for("irc-bench.socket-address-stamp");

type StampedGlobal = typeof globalThis & { [INSTALLED]?: boolean };

function stampSocketAddress(request: IncomingMessage): void {
  const address = request.socket?.remoteAddress;
  if (address) request.headers[SOCKET_ADDRESS_HEADER] = address;
  else delete request.headers[SOCKET_ADDRESS_HEADER];
}

/**
 * Wraps `emit` of every http.Server (the prototype's, so it also reaches the
 * server `next start` created before this ran): each "request" is stamped
 * first. Called once from instrumentation.ts; idempotent.
 */
export function installSocketAddressStamp(): void {
  const root = globalThis as StampedGlobal;
  if (root[INSTALLED]) return;
  root[INSTALLED] = true;
  const originalEmit = http.Server.prototype.emit;
  const emit = originalEmit as (this: http.Server, event: string | symbol, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function emitWithStamp(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === "request" && args[0] instanceof http.IncomingMessage) stampSocketAddress(args[0]);
    return emit.call(this, event, ...args);
  } as typeof originalEmit;
}
