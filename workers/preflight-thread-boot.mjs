// Development and tests: runs workers/preflight-thread.ts from source in a worker thread, compiled by tsx (a devDependency).
// Production runs the esbuild bundle dist/preflight/preflight-thread.mjs instead (scripts/build/build-cli.mjs builds it).
import { createRequire } from "node:module";
import { workerData } from "node:worker_threads";

const require = createRequire(import.meta.url);
require("tsx/cjs/api").register();
require(workerData.entry);
