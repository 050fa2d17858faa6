// npm ci / npm install: generate the Prisma client (lib/platform/generated/prisma), so a fresh clone
// can run the worker or a script right away. Offline: `prisma generate` with the js engine
// needs only some DATABASE_URL (it connects to nothing); without one it tries to download an
// engine, so a placeholder is given when none is set.
import { spawnSync } from "node:child_process";

const env = { ...process.env, DATABASE_URL: process.env.DATABASE_URL || "postgresql://placeholder:placeholder@127.0.0.1:5432/placeholder" };
const result = spawnSync("npx", ["--no-install", "prisma", "generate"], { stdio: ["ignore", "ignore", "inherit"], env });
if (result.status !== 0) {
  console.error("postinstall: prisma generate failed; run `DATABASE_URL=postgresql://... npx prisma generate` by hand");
  process.exit(result.status ?? 1);
}
