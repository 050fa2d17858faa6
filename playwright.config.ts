import { defineConfig } from "@playwright/test";
import { e2eServerEnv } from "./e2e/fixtures/server-env";

const port = Number(process.env.E2E_PORT ?? 3100);

// The production build (made by scripts/ci/test-all.sh) served against the test database.
const serverEnv = e2eServerEnv(port);

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  webServer: [
    {
      // The production server `npm start` runs: Next.js plus precompressed API bodies and the shared page cache.
      command: `node scripts/server/web-server.mjs --port ${port} --hostname 127.0.0.1`,
      url: `http://127.0.0.1:${port}/`,
      reuseExistingServer: false,
      timeout: 120_000,
      env: serverEnv,
      stdout: "ignore",
      stderr: "pipe",
    },
    {
      // One scoring worker beside the web server, as in the quick start.
      command: "npx tsx --conditions=react-server workers/scoring-worker.ts",
      wait: { stdout: /ready: queue/ },
      reuseExistingServer: false,
      timeout: 60_000,
      env: { ...serverEnv, WORKER_LOCK_MS: "5000", WORKER_RECONCILE_MS: "2000" },
      stdout: "pipe",
      stderr: "pipe",
    },
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    trace: "retain-on-failure",
    launchOptions: {
      // Debian's Chromium; Playwright never downloads a browser here.
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-quic",
        "--no-first-run",
      ],
    },
  },
});
