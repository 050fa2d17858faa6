import os from "node:os";
import { defineConfig } from "@playwright/test";
import { e2eWorkerCount } from "./testing/e2e-workers";

// Workers run spec files side by side, each against its own database, Redis database, production web
// server and scoring worker (e2e/fixtures/worker-server.ts, started by the automatic `workerServer`
// fixture from the template scripts/ci/e2e-prepare.ts builds): E2E_WORKERS, else one per core.
const workers = e2eWorkerCount(process.env, os.availableParallelism());

export default defineConfig({
  testDir: "e2e",
  timeout: 60_000,
  // The tests of one file run in order in one worker (they share what its beforeAll made); files run in parallel.
  fullyParallel: false,
  workers,
  retries: 0,
  reporter: process.env.CI ? [["list"]] : [["list"]],
  use: {
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
