import type { NextConfig } from "next";
import { getEnv } from "./lib/env";

// The environment is validated whenever Next.js loads this file: `next build`, `next dev`,
// `next start` and scripts/web-server.mjs. A bad value stops it with a message naming the
// variable (lib/env.ts; the worker and the scripts parse the same schema). A build machine
// without the runtime configuration sets SKIP_ENV_VALIDATION=1; the server still checks at
// start (instrumentation.ts).
if (process.env.SKIP_ENV_VALIDATION !== "1") getEnv();

const isDev = process.env.NODE_ENV !== "production";

// Inline scripts carry Next.js hydration data; 'unsafe-eval' only for dev tooling.
const contentSecurityPolicy = [
  "default-src 'self'",
  `script-src 'self' 'unsafe-inline'${isDev ? " 'unsafe-eval'" : ""}`,
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self'",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self' https://github.com",
  "object-src 'none'",
].join("; ");

const securityHeaders = [
  { key: "Content-Security-Policy", value: contentSecurityPolicy },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

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
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
