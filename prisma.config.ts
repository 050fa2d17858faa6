import path from "node:path";
import { defineConfig } from "prisma/config";
import { createOfflineMigrationAdapter } from "./prisma/offline-migrate-adapter";

// The "js" engine keeps every Prisma CLI command offline; see prisma/offline-migrate-adapter.ts.
const PLACEHOLDER_URL = "postgresql://irc:irc@127.0.0.1:54329/irc_bench";

export default defineConfig({
  engine: "js" as const,
  experimental: { adapter: true },
  schema: path.join("prisma", "schema.prisma"),
  migrations: { path: path.join("prisma", "migrations") },
  async adapter() {
    return createOfflineMigrationAdapter(process.env.DATABASE_URL ?? PLACEHOLDER_URL);
  },
});
