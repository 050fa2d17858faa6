import os from "node:os";
import path from "node:path";
import { defineConfig } from "vitest/config";
import { integrationWorkerCount } from "./tests/integration/support/pool-label";

// "server-only" throws outside React Server Components; tests import server modules directly.
const alias = {
  "@": path.resolve(__dirname),
  "server-only": path.resolve(__dirname, "node_modules/server-only/empty.js"),
};

export default defineConfig({
  resolve: { alias },
  test: {
    projects: [
      {
        resolve: { alias },
        test: {
          name: "unit",
          include: ["lib/**/*.test.ts", "testing/**/*.test.ts", "scripts/**/*.test.ts", "components/**/*.test.{ts,tsx}"],
          exclude: ["e2e/**", "node_modules/**", "**/*.int.test.ts"],
          environment: "node",
        },
      },
      {
        resolve: { alias },
        test: {
          name: "integration",
          include: ["tests/integration/**/*.int.test.ts"],
          exclude: ["e2e/**", "node_modules/**"],
          environment: "node",
          // Files run side by side, one per worker (INTEGRATION_WORKERS, else one per core); each worker has its own
          // database, Redis database and data directory (support/global-setup.ts, support/pool-services.ts).
          maxWorkers: integrationWorkerCount(process.env, os.availableParallelism()),
          globalSetup: ["tests/integration/support/global-setup.ts"],
          setupFiles: ["tests/integration/support/pool-services.ts"],
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
