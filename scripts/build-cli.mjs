/**
 * node scripts/build-cli.mjs [--if-stale] [--if-possible]
 *
 * Bundles the offline scorer (scripts/score.ts, protocol section 11) with
 * esbuild into one self-contained file, dist/cli/irc-bench-score.mjs, that
 * needs only Node >= 20: no node_modules, no tsx. `npm run score` runs it
 * (through scripts/run-score.mjs) and the dataset page offers it as a
 * download. Beside it, irc-bench-score.inputs.json records every source file
 * esbuild read (its metafile) with size, mtime and SHA-256, so the launcher
 * can tell in a few milliseconds whether the bundle is stale.
 *
 *   --if-stale     rebuild only when an input changed (what the launcher does)
 *   --if-possible  skip with a note when esbuild is not installed (postinstall
 *                  on a production install without devDependencies)
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SCORER_FILE_NAME = "irc-bench-score.mjs";
export const BUNDLE_PATH = path.join(ROOT, "dist", "cli", SCORER_FILE_NAME);
export const STAMP_PATH = path.join(ROOT, "dist", "cli", "irc-bench-score.inputs.json");
const ENTRY = path.join(ROOT, "scripts", "score.ts");
const STAMP_VERSION = 1;

/** Files that shape the bundle without being bundled: this script, the lockfile (esbuild, zod versions), tsconfig paths. */
const EXTRA_INPUTS = ["scripts/build-cli.mjs", "package-lock.json", "tsconfig.json"];

function sha256(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

function describeInput(relative) {
  const info = statSync(path.join(ROOT, relative));
  return { bytes: info.size, mtimeMs: info.mtimeMs, sha256: sha256(path.join(ROOT, relative)) };
}

/**
 * True when the bundle exists and every recorded input still has its size and
 * mtime, or (after a checkout that only touched mtimes) its SHA-256.
 */
export function isBundleFresh() {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(STAMP_PATH, "utf8"));
    const bundle = statSync(BUNDLE_PATH);
    if (stamp.version !== STAMP_VERSION || bundle.size !== stamp.bundle?.bytes) return false;
  } catch {
    return false;
  }
  for (const [relative, recorded] of Object.entries(stamp.inputs ?? {})) {
    let info;
    try {
      info = statSync(path.join(ROOT, relative));
    } catch {
      return false;
    }
    if (info.size !== recorded.bytes) return false;
    if (info.mtimeMs !== recorded.mtimeMs && sha256(path.join(ROOT, relative)) !== recorded.sha256) return false;
  }
  return true;
}

async function loadEsbuild(isOptional) {
  try {
    return await import("esbuild");
  } catch (error) {
    if (isOptional) return null;
    throw new Error(`esbuild is not installed (npm ci installs it as a devDependency): ${error.message}`);
  }
}

/** Builds the bundle and its stamp; returns the bundle's size and SHA-256. */
export async function buildCli({ isOptional = false } = {}) {
  const esbuild = await loadEsbuild(isOptional);
  if (esbuild === null) {
    console.log("build-cli: esbuild is not installed; skipped (npm run build:cli builds the scorer later).");
    return null;
  }
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [ENTRY],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Minified: it halves the bundle and its parse time at every start.
    minify: true,
    legalComments: "eof",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    // The scorer must stay pure: a database, a queue or the web framework in a participant's download fails the build.
    plugins: [forbidServerModules()],
    banner: {
      js: [
        "#!/usr/bin/env node",
        `// irc-bench-score.mjs: the IRC-Bench offline scorer (platform ${version}), one self-contained file.`,
        "// Needs only Node >= 20: node irc-bench-score.mjs --release FOLDER --split dev --predictions preds.jsonl",
        "// Built by scripts/build-cli.mjs with esbuild from scripts/score.ts and lib/; see --help.",
      ].join("\n"),
    },
    write: false,
    metafile: true,
    logLevel: "warning",
  });
  const output = result.outputFiles[0];
  mkdirSync(path.dirname(BUNDLE_PATH), { recursive: true });
  // Write then rename, so a concurrent reader (the web route, another launcher) never sees half a file.
  const temporary = `${BUNDLE_PATH}.${process.pid}.tmp`;
  writeFileSync(temporary, output.contents, { mode: 0o755 });
  renameSync(temporary, BUNDLE_PATH);

  const inputs = {};
  for (const relative of [...Object.keys(result.metafile.inputs), ...EXTRA_INPUTS].sort()) {
    inputs[relative] = describeInput(relative);
  }
  const bundle = { bytes: output.contents.length, sha256: createHash("sha256").update(output.contents).digest("hex") };
  const stampTemporary = `${STAMP_PATH}.${process.pid}.tmp`;
  writeFileSync(stampTemporary, `${JSON.stringify({ version: STAMP_VERSION, bundle, inputs }, null, 1)}\n`);
  renameSync(stampTemporary, STAMP_PATH);
  return bundle;
}

/**
 * The web server's pre-flight thread (workers/preflight-thread.ts, started by
 * lib/submissions/preflight-pool.ts), bundled the same way: in production
 * there is no tsx to run TypeScript in a worker thread. Built with the scorer.
 */
export const PREFLIGHT_BUNDLE_PATH = path.join(ROOT, "dist", "preflight", "preflight-thread.mjs");

export async function buildPreflightThread({ isOptional = false } = {}) {
  const esbuild = await loadEsbuild(isOptional);
  if (esbuild === null) return null;
  const result = await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: [path.join(ROOT, "workers", "preflight-thread.ts")],
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    minify: true,
    tsconfig: path.join(ROOT, "tsconfig.json"),
    // Validation only: a database or framework module in the thread is a mistake.
    plugins: [forbidServerModules()],
    write: false,
    logLevel: "warning",
  });
  const output = result.outputFiles[0];
  mkdirSync(path.dirname(PREFLIGHT_BUNDLE_PATH), { recursive: true });
  const temporary = `${PREFLIGHT_BUNDLE_PATH}.${process.pid}.tmp`;
  writeFileSync(temporary, output.contents);
  renameSync(temporary, PREFLIGHT_BUNDLE_PATH);
  return { bytes: output.contents.length };
}

const FORBIDDEN = /^(server-only|next(\/.*)?|@prisma\/.*|prisma|ioredis|bullmq|pg|@\/lib\/(db|redis|env)|@\/lib\/generated\/.*)$/;

function forbidServerModules() {
  return {
    name: "forbid-server-modules",
    setup(build) {
      build.onResolve({ filter: FORBIDDEN }, (args) => ({
        errors: [{ text: `${args.path} (imported by ${args.importer}) must not be in the offline scorer: it is server-side` }],
      }));
    },
  };
}

async function main() {
  const flags = new Set(process.argv.slice(2));
  if (flags.has("--if-stale") && isBundleFresh()) {
    return;
  }
  const started = performance.now();
  const bundle = await buildCli({ isOptional: flags.has("--if-possible") });
  if (bundle !== null) {
    const relative = path.relative(process.cwd(), BUNDLE_PATH) || BUNDLE_PATH;
    const kib = (bundle.bytes / 1024).toFixed(0);
    console.log(`build-cli: ${relative} (${kib} KiB, sha256 ${bundle.sha256}) in ${(performance.now() - started).toFixed(0)} ms`);
    const preflight = await buildPreflightThread({ isOptional: flags.has("--if-possible") });
    if (preflight !== null) console.log(`build-cli: ${path.relative(process.cwd(), PREFLIGHT_BUNDLE_PATH)} (${(preflight.bytes / 1024).toFixed(0)} KiB)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(`build-cli: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
