/**
 * node scripts/build/build-cli.mjs [--if-stale] [--if-possible] [scorer|client ...]
 *
 * Bundles the command-line tools with esbuild, each into one self-contained
 * file that needs only Node >= 20: no node_modules, no tsx.
 *
 *   dist/cli/irc-bench-score.mjs   the offline scorer (scripts/participant/score.ts, protocol section 11)
 *   dist/cli/irc-bench-client.mjs  the API client (scripts/participant/client.ts: login, submit, status, ...)
 *
 * `npm run score` and `npm run client` run them (through scripts/participant/run-score.mjs
 * and scripts/participant/run-client.mjs) and the dataset page offers them as downloads.
 * Beside each, <name>.inputs.json records every source file esbuild read (its
 * metafile) with size, mtime and SHA-256, so a launcher can tell in a few
 * milliseconds whether its bundle is stale.
 *
 *   --if-stale     rebuild only the bundles whose inputs changed (what the launchers do)
 *   --if-possible  skip with a note when esbuild is not installed (postinstall
 *                  on a production install without devDependencies)
 *   scorer|client  build only these (default: both)
 */
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describeInput, inputsUnchanged } from "./build-inputs.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const STAMP_VERSION = 1;

/** The bundles: what each is built from and what its first lines say. */
export const BUNDLES = {
  scorer: {
    fileName: "irc-bench-score.mjs",
    entry: path.join(ROOT, "scripts", "participant", "score.ts"),
    // Loaded on first need (scripts/participant/score.ts, loadFullValidation): embedded, not evaluated at start.
    deferred: { specifier: "./score-full-validation", entry: path.join(ROOT, "scripts", "participant", "score-full-validation.ts") },
    banner: (version) => [
      `// irc-bench-score.mjs: the IRC-Bench offline scorer (platform ${version}), one self-contained file.`,
      "// Needs only Node >= 20: node irc-bench-score.mjs --release FOLDER --split dev --predictions preds.jsonl",
      "// Built by scripts/build/build-cli.mjs with esbuild from scripts/participant/score.ts and lib/; see --help.",
    ],
  },
  client: {
    fileName: "irc-bench-client.mjs",
    entry: path.join(ROOT, "scripts", "participant", "client.ts"),
    banner: (version) => [
      `// irc-bench-client.mjs: the IRC-Bench command-line client (platform ${version}), one self-contained file.`,
      "// Needs only Node >= 20: node irc-bench-client.mjs login, then submit FILE --wait; see --help.",
      "// Built by scripts/build/build-cli.mjs with esbuild from scripts/participant/client.ts and lib/.",
    ],
  },
};

export const BUNDLE_NAMES = Object.keys(BUNDLES);

export function bundlePath(name) {
  return path.join(ROOT, "dist", "cli", BUNDLES[name].fileName);
}

function stampPath(name) {
  return path.join(ROOT, "dist", "cli", BUNDLES[name].fileName.replace(/\.mjs$/, ".inputs.json"));
}

/** The scorer's bundle: the path participants download and `npm run score` runs. */
export const BUNDLE_PATH = bundlePath("scorer");

/** Files that shape the bundles without being bundled: this script, the lockfile (esbuild, zod versions), tsconfig paths. */
const EXTRA_INPUTS = ["scripts/build/build-cli.mjs", "package-lock.json", "tsconfig.json"];

/**
 * True when the bundle exists and every recorded input still has its size and
 * mtime, or (after a checkout that only touched mtimes) its SHA-256.
 */
export function isBundleFresh(name = "scorer") {
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(stampPath(name), "utf8"));
    const bundle = statSync(bundlePath(name));
    if (stamp.version !== STAMP_VERSION || bundle.size !== stamp.bundle?.bytes) return false;
  } catch {
    return false;
  }
  return inputsUnchanged(ROOT, stamp.inputs);
}

async function loadEsbuild(isOptional) {
  try {
    return await import("esbuild");
  } catch (error) {
    if (isOptional) return null;
    throw new Error(`esbuild is not installed (npm ci installs it as a devDependency): ${error.message}`);
  }
}

/** Builds one bundle and its stamp; returns its size and SHA-256, or null when esbuild is missing and that is allowed. */
export async function buildCli({ name = "scorer", isOptional = false } = {}) {
  const spec = BUNDLES[name];
  if (spec === undefined) throw new Error(`unknown bundle "${name}"; use ${BUNDLE_NAMES.join(" or ")}`);
  const esbuild = await loadEsbuild(isOptional);
  if (esbuild === null) {
    console.log("build-cli: esbuild is not installed; skipped (npm run build:cli builds the tools later).");
    return null;
  }
  const { version } = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const common = {
    absWorkingDir: ROOT,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    // Minified: it halves the bundle and its parse time at every start.
    minify: true,
    legalComments: "eof",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    define: { IRC_BENCH_PLATFORM_VERSION: JSON.stringify(version) },
    write: false,
    metafile: true,
    logLevel: "warning",
  };
  const deferred = spec.deferred === undefined ? null : await buildDeferred(esbuild, common, spec);
  const result = await esbuild.build({
    ...common,
    entryPoints: [spec.entry],
    // The tools must stay free of server code: a database, a queue or the web framework in a participant's download fails the build.
    plugins: [forbidServerModules(spec.fileName), onlyEnglishZodLocale(), ...(deferred === null ? [] : [deferred.plugin])],
    // The last banner line marks when the bundle was read and compiled, for IRC_BENCH_SCORE_TIMINGS (scripts/participant/score-timings.ts).
    banner: { js: ["#!/usr/bin/env node", ...spec.banner(version), "globalThis.__ircBenchLoaded = performance.now();"].join("\n") },
  });
  const output = result.outputFiles[0];
  const target = bundlePath(name);
  mkdirSync(path.dirname(target), { recursive: true });
  // Write then rename, so a concurrent reader (the web route, another launcher) never sees half a file.
  const temporary = `${target}.${process.pid}.tmp`;
  writeFileSync(temporary, output.contents, { mode: 0o755 });
  renameSync(temporary, target);

  const inputs = {};
  const sources = new Set([...Object.keys(result.metafile.inputs), ...Object.keys(deferred?.inputs ?? {}), ...EXTRA_INPUTS]);
  for (const relative of [...sources].sort()) {
    inputs[relative] = describeInput(ROOT, relative);
  }
  const bundle = { bytes: output.contents.length, sha256: createHash("sha256").update(output.contents).digest("hex") };
  const stampTemporary = `${stampPath(name)}.${process.pid}.tmp`;
  writeFileSync(stampTemporary, `${JSON.stringify({ version: STAMP_VERSION, bundle, inputs }, null, 1)}\n`);
  renameSync(stampTemporary, stampPath(name));
  return bundle;
}

/**
 * The part of a tool that only some runs need (the scorer's zod validation),
 * bundled on its own and put into the tool as a data: URL that its dynamic
 * import() loads. The tool stays one self-contained file, and Node reads
 * the embedded part as one string literal at start instead of parsing and
 * evaluating its code (zod alone was four fifths of the scorer's bytes).
 */
async function buildDeferred(esbuild, common, spec) {
  const { specifier, entry } = spec.deferred;
  const result = await esbuild.build({
    ...common,
    entryPoints: [entry],
    legalComments: "inline",
    plugins: [forbidServerModules(spec.fileName), onlyEnglishZodLocale()],
  });
  const url = `data:text/javascript;base64,${Buffer.from(result.outputFiles[0].contents).toString("base64")}`;
  const plugin = {
    name: "deferred-module",
    setup(build) {
      build.onResolve({ filter: new RegExp(`^${specifier.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")}$`) }, () => ({ path: url, external: true }));
    },
  };
  return { plugin, inputs: result.metafile.inputs };
}

/**
 * The web server's pre-flight thread (workers/preflight-thread.ts, started by
 * lib/domain/uploads/preflight-pool.ts), bundled the same way: in production
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

function forbidServerModules(fileName) {
  return {
    name: "forbid-server-modules",
    setup(build) {
      build.onResolve({ filter: FORBIDDEN }, (args) => ({
        errors: [{ text: `${args.path} (imported by ${args.importer}) must not be in ${fileName}: it is server-side` }],
      }));
    },
  };
}

/**
 * zod re-exports all of its ~40 message locales (`z.locales`), about 60% of
 * the bundle's bytes, which Node would read and compile at every start. The
 * scorer uses none of them: zod's own default, English, is configured from
 * locales/en.js directly, so the index is replaced by one that holds English only.
 */
function onlyEnglishZodLocale() {
  const englishOnly = path.join(ROOT, "scripts", "build", "zod-english-locale.mjs");
  return {
    name: "only-english-zod-locale",
    setup(build) {
      build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
        /[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: englishOnly } : undefined,
      );
    },
  };
}

/**
 * What a launcher (scripts/participant/run-score.mjs, scripts/participant/run-client.mjs) does before
 * importing its bundle: rebuild it when stale. Exits with status 2 and a
 * message when it cannot.
 */
export async function ensureBundle(name, tool) {
  if (isBundleFresh(name)) return bundlePath(name);
  try {
    await buildCli({ name });
  } catch (error) {
    process.stderr.write(`${tool}: cannot build ${BUNDLES[name].fileName}: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
  return bundlePath(name);
}

const USAGE = `Usage: npm run build:cli [-- NAME...] [--if-stale] [--if-possible]
Bundles the participant command-line client (and its pre-flight thread) into dist/.
  NAME           only these bundles (default all: ${BUNDLE_NAMES.join(", ")})
  --if-stale     skip a bundle whose sources have not changed since it was built
  --if-possible  do nothing when esbuild is not installed (a production install)`;

async function main() {
  const args = process.argv.slice(2);
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return;
  }
  const flags = new Set(args.filter((arg) => arg.startsWith("--")));
  const names = args.filter((arg) => !arg.startsWith("--"));
  for (const name of names.length > 0 ? names : BUNDLE_NAMES) {
    if (flags.has("--if-stale") && isBundleFresh(name)) continue;
    const started = performance.now();
    const bundle = await buildCli({ name, isOptional: flags.has("--if-possible") });
    if (bundle === null) return;
    const relative = path.relative(process.cwd(), bundlePath(name)) || bundlePath(name);
    const kib = Math.round(bundle.bytes / 1024);
    console.log(`build-cli: ${relative} (${kib} KiB, sha256 ${bundle.sha256}) in ${Math.round(performance.now() - started)} ms`);
    const preflight = await buildPreflightThread({ isOptional: flags.has("--if-possible") });
    if (preflight !== null) console.log(`build-cli: ${path.relative(process.cwd(), PREFLIGHT_BUNDLE_PATH)} (${Math.round(preflight.bytes / 1024)} KiB)`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  main().catch((error) => {
    console.error(`build-cli: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  });
}
