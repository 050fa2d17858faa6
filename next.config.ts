import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { NextConfig } from "next";
import { securityHeaders } from "./lib/web/http/security-headers";

// No environment validation here: `next build` must succeed on a build machine (a CI image,
// a Docker build) with no database, Redis or secrets. The web server validates the
// environment when it starts (instrumentation.ts, lib/platform/env.ts), like the worker and the scripts.

const DEFAULT_DIST_DIR = ".next";
// A separate build directory lets a benchmark or a second checkout build beside the main one.
const distDir = process.env.NEXT_DIST_DIR ?? DEFAULT_DIST_DIR;

/**
 * Next.js adds `<distDir>/types/**\/*.ts` to the `include` of the tsconfig it builds with
 * when the pattern is missing (lib/typescript/writeConfigurationDefaults.js), which would
 * rewrite the tracked tsconfig.json for every other build directory. Such a build uses its
 * own untracked tsconfig beside the directory (`.next-x.tsconfig.json`, git-ignored), which
 * extends tsconfig.json and already names the patterns, so nothing is rewritten.
 */
function tsconfigFor(directory: string): string | undefined {
  if (directory === DEFAULT_DIST_DIR) return undefined;
  const file = `${directory.replace(/[\\/]+$/, "")}.tsconfig.json`;
  const posix = directory.split(path.sep).join("/").replace(/\/+$/, "");
  const config = {
    extends: "./tsconfig.json",
    include: ["next-env.d.ts", "**/*.ts", "**/*.tsx", `${posix}/types/**/*.ts`, `${posix}/dev/types/**/*.ts`],
  };
  const text = `${JSON.stringify(config, null, 2)}\n`;
  // Written only when it differs, so a server starting from a read-only checkout writes nothing.
  const current = existsSync(file) ? readFileSync(file, "utf8") : null;
  if (current !== text) writeFileSync(file, text);
  return file;
}

const isDev = process.env.NODE_ENV !== "production";

const nextConfig: NextConfig = {
  distDir,
  poweredByHeader: false,
  // `npm test` type-checks the whole project with tsc as its own step; the build need not repeat it.
  typescript: { ignoreBuildErrors: true, tsconfigPath: tsconfigFor(distDir) },
  reactStrictMode: true,
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "bullmq", "ioredis", "pino", "prom-client", "@aws-sdk/client-s3", "@aws-sdk/lib-storage"],
  experimental: { serverActions: { bodySizeLimit: "2mb" } },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders(isDev) }];
  },
};

export default nextConfig;
