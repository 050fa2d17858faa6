/**
 * node scripts/build/build-server.mjs [--if-possible] [--check NAME]
 *
 * Compiles the scoring worker and the operators' scripts ahead of time with
 * esbuild, so a production install (`npm ci --omit=dev`: no tsx, no esbuild)
 * runs them with plain Node:
 *
 *   dist/server/scoring-worker.cjs   workers/scoring-worker.ts   (npm run worker)
 *   dist/server/dataset-import.cjs   scripts/ops/dataset-import.ts   (npm run dataset:import)
 *   ... one per entry of SERVER_BUNDLES below
 *
 * Each is one CommonJS file of this project's code (lib/ and the entry) with
 * the packages of node_modules left as `require` calls, the same module
 * semantics tsx gives these files today (no `"type": "module"`: CommonJS).
 * They are built with the `react-server` condition and must be run with it
 * (`node --conditions=react-server`, what scripts/server/run-server.sh does), so
 * `import "server-only"` and every package resolve as under
 * `tsx --conditions=react-server`. The generated Prisma client stays outside
 * (`lib/platform/generated/prisma`, made by postinstall on every install) because it
 * finds its WebAssembly engine beside itself.
 *
 * Beside each bundle, NAME.inputs.json records every source file esbuild read
 * with its size, mtime and SHA-256; `--check NAME` prints NAME's entry point
 * and exits 0 when the bundle is there and none of them changed, 1 otherwise
 * (scripts/server/run-server.sh runs the bundle then, and the TypeScript source
 * through tsx otherwise).
 *
 *   --if-possible  skip with a note when esbuild is not installed
 *                  (a production install builds nothing: build first)
 */
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describeInput, inputsUnchanged } from "./build-inputs.mjs";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const OUT_DIR = path.join(ROOT, "dist", "server");
const STAMP_VERSION = 1;

/** Bundle name -> entry point (relative to the repository root). */
export const SERVER_BUNDLES = {
  "scoring-worker": "workers/scoring-worker.ts",
  "dataset-import": "scripts/ops/dataset-import.ts",
  "reported-import": "scripts/ops/reported-import.ts",
  baselines: "scripts/ops/baselines.ts",
  rescore: "scripts/ops/rescore.ts",
  "user-create": "scripts/ops/user-create.ts",
  "files-migrate": "scripts/ops/files-migrate.ts",
  "demo-entries": "scripts/ops/demo-entries.ts",
};

/** Files that shape a bundle without being read by esbuild as a module. */
const EXTRA_INPUTS = ["scripts/build/build-server.mjs", "package-lock.json", "tsconfig.json"];

/** Kept out of the bundle and required from beside the output: it loads its engine from its own folder. */
const GENERATED_PRISMA = /^@\/lib\/platform\/generated\/prisma$/;

export function serverBundlePath(name) {
  return path.join(OUT_DIR, `${name}.cjs`);
}

function stampPath(name) {
  return path.join(OUT_DIR, `${name}.inputs.json`);
}

/** True when the bundle exists and no recorded input changed (same size and mtime, or same SHA-256). */
export function isServerBundleFresh(name) {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampPath(name), "utf8"));
    if (stamp.version !== STAMP_VERSION || statSync(serverBundlePath(name)).size !== stamp.bundleBytes) return false;
  } catch {
    return false;
  }
  return inputsUnchanged(ROOT, stamp.inputs);
}

function keepGeneratedPrismaOutside() {
  return {
    name: "keep-generated-prisma-outside",
    setup(build) {
      build.onResolve({ filter: GENERATED_PRISMA }, () => ({
        path: path.relative(OUT_DIR, path.join(ROOT, "lib", "platform", "generated", "prisma")).split(path.sep).join("/"),
        external: true,
      }));
    },
  };
}

async function loadEsbuild(isOptional) {
  try {
    return await import("esbuild");
  } catch (error) {
    if (isOptional) return null;
    throw new Error(`esbuild is not installed (a devDependency: run the build before npm ci --omit=dev): ${error.message}`);
  }
}

async function buildOne(esbuild, name) {
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, SERVER_BUNDLES[name])],
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    packages: "external",
    conditions: ["react-server"],
    tsconfig: path.join(ROOT, "tsconfig.json"),
    plugins: [keepGeneratedPrismaOutside()],
    sourcemap: "inline",
    banner: { js: `// ${name}.cjs: built by scripts/build/build-server.mjs from ${SERVER_BUNDLES[name]}; run with node --conditions=react-server.` },
    write: false,
    metafile: true,
    logLevel: "warning",
  });
  const output = result.outputFiles[0];
  const target = serverBundlePath(name);
  // Write then rename: a process starting meanwhile sees the old file or the new one, never half of one.
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, output.contents);
  renameSync(temporary, target);
  const inputs = {};
  for (const relative of [...Object.keys(result.metafile.inputs), ...EXTRA_INPUTS].sort()) {
    inputs[relative] = describeInput(ROOT, relative);
  }
  const stampTemporary = `${stampPath(name)}.${process.pid}.tmp`;
  writeFileSync(stampTemporary, `${JSON.stringify({ version: STAMP_VERSION, bundleBytes: output.contents.length, inputs }, null, 1)}\n`);
  renameSync(stampTemporary, stampPath(name));
  return output.contents.length;
}

/** Builds every server bundle; returns false when esbuild is missing and that is allowed. */
export async function buildServer({ isOptional = false } = {}) {
  const esbuild = await loadEsbuild(isOptional);
  if (esbuild === null) {
    console.log("build-server: esbuild is not installed; skipped (npm run build makes dist/server/ where it is).");
    return false;
  }
  mkdirSync(OUT_DIR, { recursive: true });
  const started = performance.now();
  const sizes = await Promise.all(Object.keys(SERVER_BUNDLES).map((name) => buildOne(esbuild, name)));
  const kib = Math.round(sizes.reduce((sum, bytes) => sum + bytes, 0) / 1024);
  console.log(`build-server: ${sizes.length} bundles in ${path.relative(process.cwd(), OUT_DIR) || OUT_DIR}/ (${kib} KiB with source maps) in ${Math.round(performance.now() - started)} ms`);
  return true;
}

const USAGE = `Usage: npm run build:server [-- --if-possible] | node scripts/build/build-server.mjs --check NAME
Bundles the scoring worker and the operator scripts into dist/server/ (plain Node, no tsx).
  --if-possible  do nothing when esbuild is not installed (a production install)
  --check NAME   print NAME's entry point; exit 0 when its bundle is fresh, 1 when stale`;

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return;
  }
  const checkIndex = args.indexOf("--check");
  if (checkIndex !== -1) {
    const name = args[checkIndex + 1];
    if (name === undefined || !(name in SERVER_BUNDLES)) {
      console.error(`build-server: --check needs one of ${Object.keys(SERVER_BUNDLES).join(", ")}`);
      process.exit(2);
    }
    // The entry point on stdout: the launcher runs it through tsx when the bundle is stale.
    process.stdout.write(`${SERVER_BUNDLES[name]}\n`);
    process.exit(isServerBundleFresh(name) ? 0 : 1);
  }
  await buildServer({ isOptional: args.includes("--if-possible") });
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(`build-server: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
