import path from "node:path";
import { defineConfig } from "vitest/config";

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
          fileParallelism: false,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
    ],
  },
});
