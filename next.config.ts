import type { NextConfig } from "next";
import { getEnv } from "./lib/env";
import { securityHeaders } from "./lib/http/security-headers";

// The environment is validated whenever Next.js loads this file: `next build`, `next dev`,
// `next start` and scripts/web-server.mjs. A bad value stops it with a message naming the
// variable (lib/env.ts; the worker and the scripts parse the same schema). A build machine
// without the runtime configuration sets SKIP_ENV_VALIDATION=1; the server still checks at
// start (instrumentation.ts).
if (process.env.SKIP_ENV_VALIDATION !== "1") getEnv();

const isDev = process.env.NODE_ENV !== "production";

const nextConfig: NextConfig = {
  // A separate build directory lets a benchmark or a second checkout build beside the main one.
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  poweredByHeader: false,
  // `npm test` type-checks the whole project with tsc as its own step; the build need not repeat it.
  typescript: { ignoreBuildErrors: true },
  reactStrictMode: true,
  serverExternalPackages: ["pg", "@prisma/adapter-pg", "bullmq", "ioredis", "pino", "prom-client"],
  experimental: { serverActions: { bodySizeLimit: "2mb" } },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders(isDev) }];
  },
};

export default nextConfig;
