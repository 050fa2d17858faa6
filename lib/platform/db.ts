import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "@/lib/platform/generated/prisma";
import { getEnv } from "@/lib/platform/env";

/** The one Prisma client of a process (reused across hot reloads in development). */
const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

function createPrismaClient(): PrismaClient {
  const env = getEnv();
  const url = new URL(env.DATABASE_URL);
  const adapter = new PrismaPg({
    host: decodeURIComponent(url.hostname),
    port: Number(url.port || 5432),
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    database: decodeURIComponent(url.pathname.replace(/^\//, "")),
    max: 10,
  });
  return new PrismaClient({ adapter });
}

let client: PrismaClient | undefined = globalForPrisma.prisma;

function getClient(): PrismaClient {
  if (client) return client;
  client = createPrismaClient();
  if (getEnv().NODE_ENV !== "production") globalForPrisma.prisma = client;
  return client;
}

/**
 * The client, made on first use rather than on import: `next build` imports
 * every page's modules to read their configuration, on a build machine that
 * has no DATABASE_URL (the server validates the environment when it starts,
 * instrumentation.ts). Every property is the real client's, bound to it.
 */
export const db: PrismaClient = new Proxy({} as PrismaClient, {
  get(_target, property) {
    const real = getClient();
    const value: unknown = Reflect.get(real, property, real);
    return typeof value === "function" ? value.bind(real) : value;
  },
  has(_target, property) {
    return Reflect.has(getClient(), property);
  },
});
