/**
 * The production web server: `next start`, plus one thing it cannot do. Next.js
 * drops a route handler's Content-Encoding header, so the public API's
 * precompressed bodies (lib/web/public-cache/public-body-cache.ts) name their
 * encoding in X-Irc-Content-Encoding; this server turns that into
 * Content-Encoding before the response's headers are written, and Next.js's
 * own gzip (router-server, the `compression` package) then leaves the body
 * alone ("already encoded").
 *
 * It also puts the public pages behind the shared page cache: a request for
 * /leaderboard (any view), /leaderboard/matrix, /leaderboard/types/TYPE or
 * /entries/ID, from anyone, signed in or not (lib/web/public-cache/public-page-routing.mjs),
 * is rewritten to /api/public-page, which answers from the cache: every reader
 * gets the anonymous reader's page, and the browser fills in the header's
 * account menu (GET /api/account-menu). A page the cache lacks is rendered by an
 * anonymous request to this process's second, private listener on a loopback
 * port (IRC_PAGE_RENDER_ORIGIN), which serves the app without any rewrite, so
 * the render sees this process's own data stamp. Client-side navigations and
 * every other path go to Next.js as they came.
 *
 * Cache hits do not reach Next.js at all: its per-request work costs more than
 * sending a stored body. Before handing a request on, this server asks the fast
 * path that instrumentation.ts installed on globalThis
 * (lib/web/public-cache/public-fast-path.ts, built by Next.js with the rest of the
 * app): an anonymous page request or a public API read whose body for the
 * current data stamp is already in this process or in Redis is answered here,
 * with the same encodings, ETags, 304s and headers. A miss, or any fault,
 * goes to Next.js unchanged.
 *
 *   node scripts/server/web-server.mjs [--port 3000] [--hostname 127.0.0.1]   (default: BIND_HOST, else 0.0.0.0)
 */
import { createServer } from "node:http";
import { setTimeout } from "node:timers";
import { parseArgs } from "node:util";
import next from "next";
import { pino } from "pino";
import { cacheablePageRequest, PUBLIC_PAGE_ROUTE } from "../../lib/web/public-cache/public-page-routing.mjs";

const PRECOMPRESSED_HEADER = "x-irc-content-encoding";
const ENCODINGS = new Set(["gzip", "br"]);
/** Where instrumentation.ts puts the fast path (lib/web/public-cache/public-fast-path.ts, PUBLIC_FAST_PATH). */
const PUBLIC_FAST_PATH = Symbol.for("irc-bench.public-fast-path");
const FAULT_LOG_INTERVAL_MS = 30_000;

const USAGE = `Usage: npm start (node scripts/server/web-server.mjs [--port PORT] [--hostname HOST])
Serves the production build; --port defaults to PORT, else 3000; --hostname to BIND_HOST, else 0.0.0.0.`;
// The same behaviour as scripts/command-line.ts (which this plain script cannot import).
let values;
try {
  ({ values } = parseArgs({ options: { port: { type: "string" }, hostname: { type: "string" }, help: { type: "boolean", short: "h" } } }));
} catch (error) {
  process.stderr.write(`npm start: ${error instanceof Error ? error.message : String(error)}\n\n${USAGE}\n`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const port = Number(values.port ?? process.env.PORT ?? 3000);
// BIND_HOST (README, Configuration): 127.0.0.1 behind a reverse proxy on the same machine. Not HOSTNAME: shells and containers set it to the machine's name.
const hostname = values.hostname ?? process.env.BIND_HOST ?? "0.0.0.0";

process.env.NODE_ENV = "production";
// The same JSON lines as lib/platform/logger.ts (which this plain script cannot import).
const logger = pino({ level: process.env.LOG_LEVEL ?? "info" });
process.env.IRC_PRECOMPRESSED_RESPONSES = "1";

/** Renames the private header on this response only; any other value of it is dropped. */
function passEncodingOn(res) {
  const setHeader = res.setHeader.bind(res);
  res.setHeader = (name, value) => {
    if (String(name).toLowerCase() !== PRECOMPRESSED_HEADER) return setHeader(name, value);
    const encoding = String(value).toLowerCase();
    return ENCODINGS.has(encoding) ? setHeader("Content-Encoding", encoding) : res;
  };
  const appendHeader = res.appendHeader.bind(res);
  res.appendHeader = (name, value) => (String(name).toLowerCase() === PRECOMPRESSED_HEADER ? res.setHeader(name, value) : appendHeader(name, value));
}

/** Sends an anonymous request for a cached public page to the route that serves the cache. */
function routeToPageCache(req) {
  const pagePath = cacheablePageRequest(req);
  if (pagePath !== null) req.url = `${PUBLIC_PAGE_ROUTE}?path=${encodeURIComponent(pagePath)}`;
}

/** The private listener's origin; set before Next.js reads the environment. */
function listenPrivately(server) {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${server.address().port}`));
  });
}

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
const renderServer = createServer((req, res) => handle(req, res));
process.env.IRC_PAGE_RENDER_ORIGIN = await listenPrivately(renderServer);
await app.prepare();

let lastFaultLoggedAt = 0;
/** One line per FAULT_LOG_INTERVAL_MS while the fast path fails (the database or Redis is down): Next.js answers meanwhile. */
function logFastPathFault(error) {
  const now = Date.now();
  if (now - lastFaultLoggedAt < FAULT_LOG_INTERVAL_MS) return;
  lastFaultLoggedAt = now;
  logger.warn({ service: "web", err: error }, "public cache fast path failed; Next.js answers instead");
}

function handleWithNext(req, res) {
  passEncodingOn(res);
  routeToPageCache(req);
  handle(req, res);
}

/** The fast path's answer (a promise), or null when Next.js answers. */
function askFastPath(req) {
  // Looked up per request: Next.js runs instrumentation.ts when it first handles one, not in prepare().
  const fastPath = globalThis[PUBLIC_FAST_PATH];
  if (typeof fastPath !== "function") return null;
  try {
    return fastPath(req);
  } catch (error) {
    logFastPathFault(error);
    return null;
  }
}

function send(res, answer) {
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body ?? undefined);
}

const server = createServer((req, res) => {
  const pending = askFastPath(req);
  if (pending === null) return handleWithNext(req, res);
  // A hit whose stamp and body this process holds comes back as the answer itself, not a promise.
  if (typeof pending.then !== "function") return send(res, pending);
  pending.then(
    (answer) => (answer === null ? handleWithNext(req, res) : send(res, answer)),
    (error) => {
      logFastPathFault(error);
      handleWithNext(req, res);
    },
  );
});
// A port someone else holds is one line, not a stack trace: npm run up and systemd show it as it is.
server.once("error", (error) => {
  const reason = error.code === "EADDRINUSE" ? "is already in use" : error.code === "EACCES" ? "needs privileges this user lacks" : `failed (${error.message})`;
  console.error(`web-server: listening on ${hostname}:${port} ${reason}; set PORT (or --port) to a free port`);
  process.exit(1);
});
server.listen(port, hostname, () => {
  logger.info({ service: "web", bind: hostname, port }, `ready on http://${hostname}:${port}`);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    renderServer.close();
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
