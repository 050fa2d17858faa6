/**
 * The production web server: `next start`, plus one thing it cannot do. Next.js
 * drops a route handler's Content-Encoding header, so the public API's
 * precompressed bodies (lib/leaderboard/public-body-cache.ts) name their
 * encoding in X-Irc-Content-Encoding; this server turns that into
 * Content-Encoding before the response's headers are written, and Next.js's
 * own gzip (router-server, the `compression` package) then leaves the body
 * alone ("already encoded"). Everything else, pages included, Next.js serves
 * and compresses as usual.
 *
 *   node scripts/web-server.mjs [--port 3000] [--hostname 127.0.0.1]
 */
import { createServer } from "node:http";
import { setTimeout } from "node:timers";
import { parseArgs } from "node:util";
import next from "next";
import { pino } from "pino";

const PRECOMPRESSED_HEADER = "x-irc-content-encoding";
const ENCODINGS = new Set(["gzip", "br"]);

const { values } = parseArgs({ options: { port: { type: "string" }, hostname: { type: "string" } } });
const port = Number(values.port ?? process.env.PORT ?? 3000);
const hostname = values.hostname ?? process.env.HOSTNAME ?? "0.0.0.0";

process.env.NODE_ENV = "production";
// The same JSON lines as lib/logger.ts (which this plain script cannot import).
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

const app = next({ dev: false, hostname, port });
const handle = app.getRequestHandler();
await app.prepare();

const server = createServer((req, res) => {
  passEncodingOn(res);
  handle(req, res);
});
server.listen(port, hostname, () => {
  logger.info({ service: "web", bind: hostname, port }, `ready on http://${hostname}:${port}`);
});

for (const signal of ["SIGTERM", "SIGINT"]) {
  process.once(signal, () => {
    server.close(() => process.exit(0));
    setTimeout(() => process.exit(0), 5000).unref();
  });
}
