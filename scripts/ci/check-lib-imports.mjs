/**
 * node scripts/ci/check-lib-imports.mjs
 *
 * lib/ holds what the running platform uses; synthetic data, seeders and test
 * support live in testing/. This check follows the imports from the
 * platform's entry points (the app, its components, the scoring worker, the
 * Next.js instrumentation hook, the offline scorer and the operator scripts
 * that `npm run up` and a maintainer run) and fails, naming the files, when a
 * module in lib/ is reached from none of them: such a module is imported only
 * by tests, benchmarks or seeders and belongs in testing/. It also fails when a
 * platform module imports from testing/. Run by `npm run lint`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Entry points of the running platform (folders are walked whole). */
const PLATFORM_ROOTS = [
  "app",
  "components",
  "workers",
  "instrumentation.ts",
  "next.config.ts",
  // The offline scorer and the client participants download, and the operator commands of the README.
  "scripts/participant/score.ts",
  "scripts/participant/client.ts",
  "scripts/ops/dataset-import.ts",
  "scripts/ops/reported-import.ts",
  "scripts/ops/baselines.ts",
  "scripts/ops/demo-entries.ts",
  "scripts/ops/rescore.ts",
  "scripts/ops/files-migrate.ts",
  "scripts/ops/user-create.ts",
];

const SOURCE = /\.(ts|tsx|mjs|js)$/;
const SKIPPED_FOLDERS = new Set(["node_modules", "generated", ".next"]);

function walk(relative) {
  const absolute = path.join(ROOT, relative);
  if (!existsSync(absolute)) return [];
  if (statSync(absolute).isFile()) return [relative];
  return readdirSync(absolute, { withFileTypes: true }).flatMap((dirent) => {
    if (SKIPPED_FOLDERS.has(dirent.name)) return [];
    const child = path.join(relative, dirent.name);
    if (dirent.isDirectory()) return walk(child);
    return SOURCE.test(dirent.name) ? [child] : [];
  });
}

const isTestFile = (file) => /\.(test|int\.test|spec)\.tsx?$/.test(file);

const IMPORT = /(?:^|[\s;])(?:import|export)\s[^"';]*?from\s*["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|^import\s*["']([^"']+)["']/gm;

function resolveImport(fromFile, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith(".")) base = path.join(path.dirname(fromFile), specifier);
  else return null;
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, `${base}.mjs`, `${base}.js`, path.join(base, "index.ts"), path.join(base, "index.tsx")]) {
    const absolute = path.join(ROOT, candidate);
    if (existsSync(absolute) && statSync(absolute).isFile()) return path.normalize(candidate);
  }
  return null;
}

function importsOf(file) {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const found = [];
  for (const match of text.matchAll(IMPORT)) {
    const specifier = match[1] ?? match[2] ?? match[3];
    if (specifier === undefined) continue;
    const resolved = resolveImport(file, specifier);
    if (resolved !== null) found.push(resolved);
  }
  return found;
}

const reached = new Set();
const queue = PLATFORM_ROOTS.flatMap(walk).filter((file) => !isTestFile(file));
const problems = [];
while (queue.length > 0) {
  const file = queue.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  for (const imported of importsOf(file)) {
    if (imported.startsWith(`testing${path.sep}`)) problems.push(`${file}: imports ${imported}; the running platform must not depend on testing/`);
    if (!reached.has(imported)) queue.push(imported);
  }
}

const libFiles = walk("lib").filter((file) => !isTestFile(file) && !file.endsWith(".d.ts"));
for (const file of libFiles) {
  if (!reached.has(file)) problems.push(`${file}: not used by the running platform (only by tests, scripts or benchmarks); move it to testing/`);
}

if (problems.length > 0) {
  console.error(`check-lib-imports: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  for (const problem of problems.sort()) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`check-lib-imports: ${libFiles.length} files in lib/, every one used by the running platform`);
