/**
 * node scripts/ops/prisma-migrate.mjs deploy|status|...   (npm run db:migrate, npm run up, npm test)
 *
 * `prisma migrate ARGS` with one message taken out of its output. The schema
 * keeps `url = env("DATABASE_URL")` because `prisma generate` needs it offline
 * (prisma/offline-migrate-adapter.ts, prisma.config.ts), while migrations
 * connect through the driver adapter of prisma.config.ts; Prisma 6.19 then
 * prints, on every migrate command, a warning that the schema's url "will NOT
 * be used", which is expected here and tells an operator nothing. Everything
 * else (progress, errors, the exit code) passes through unchanged. Drop this
 * wrapper with the rest of the offline workaround.
 */
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const WARNING_START = "WARNING: Your schema specifies the following datasource properties but you are using a Driver Adapter";
const WARNING_END = "We recommend you to remove those properties from your schema";

const child = spawn(path.join(ROOT, "node_modules", ".bin", "prisma"), ["migrate", ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: ["inherit", "pipe", "inherit"],
});

let skipping = false;
let pendingBlank = false;
const lines = createInterface({ input: child.stdout });
lines.on("line", (line) => {
  if (line.startsWith(WARNING_START)) {
    skipping = true;
    pendingBlank = false;
    return;
  }
  if (skipping) {
    if (line.startsWith(WARNING_END)) skipping = false;
    return;
  }
  // A blank line is held back one line, so the one that introduced the warning goes with it.
  if (pendingBlank) process.stdout.write("\n");
  pendingBlank = line === "";
  if (!pendingBlank) process.stdout.write(`${line}\n`);
});

for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("error", (error) => {
  console.error(`prisma migrate could not start: ${error.message} (run npm ci first)`);
  process.exit(1);
});
child.on("close", (code, signal) => {
  if (pendingBlank) process.stdout.write("\n");
  process.exit(code ?? (signal ? 1 : 0));
});
