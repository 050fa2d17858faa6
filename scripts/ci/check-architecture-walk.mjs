/**
 * node scripts/ci/check-architecture-walk.mjs [--root DIR] [--doc FILE]
 *
 * docs/architecture.md walks one upload through the code in tables whose header row is
 * `| # | file | what happens there |`, each row a step naming its files in backticks in the `file`
 * cell. The walk must be one a reader can follow in the code, so this fails, one line per problem
 * (`docs/architecture.md:LINE: ...`), when
 *
 * - a named file does not exist (or is a folder);
 * - a step after the first is not in the import path of the one before: none of its files imports a
 *   file of the previous step and none of the previous step's files imports one of its files.
 *   Imports are static and dynamic `import`, `export ... from` and `require`, with the `@/` alias or
 *   a relative path; an extensionless path resolves to .ts, .tsx, .mjs, .js or index.ts. A step the
 *   previous one reaches at run time only (a queued job, an HTTP request to another process) says so
 *   in its row: `(no import: REASON)`; a step that returns to an earlier caller names it,
 *   `(from N)`, and is checked against step N instead of the one before;
 * - a table names more than 20 distinct files (a walk is read in one sitting).
 *
 * On success it prints one line: tables, steps and files. Node built-ins only; the imports are read
 * with regular expressions, not a parser (a commented-out import in a block or line comment is
 * skipped, one inside a string is not). --root and --doc serve the fixture tests.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const MAX_FILES_PER_TABLE = 20;
const HEADER = /^\|\s*#\s*\|\s*file\s*\|\s*what happens there\s*\|\s*$/;
const SEPARATOR = /^\|(\s*:?-{3,}:?\s*\|)+\s*$/;
const NO_IMPORT = /\(no import:\s*[^)\s][^)]*\)/;
const EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts", "/index.tsx", "/index.mjs", "/index.js"];

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const index = args.indexOf(name);
  return index === -1 ? fallback : args[index + 1];
};
const ROOT = path.resolve(option("--root", path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")));
const DOC = option("--doc", "docs/architecture.md");

const isFile = (relative) => {
  const absolute = path.join(ROOT, relative);
  return existsSync(absolute) && statSync(absolute).isFile();
};

/** A markdown table row's cells; a `|` inside backticks or escaped does not split. */
function cellsOf(line) {
  const cells = [];
  let current = "";
  let inCode = false;
  const body = line.trim().replace(/^\|/, "").replace(/\|$/, "");
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (char === "\\" && body[index + 1] === "|") {
      current += "|";
      index += 1;
    } else if (char === "`") {
      inCode = !inCode;
      current += char;
    } else if (char === "|" && !inCode) {
      cells.push(current.trim());
      current = "";
    } else current += char;
  }
  cells.push(current.trim());
  return cells;
}

/** The walk tables of a markdown text: [{ line, steps: [{ line, label, files, exempt, text }] }]. */
function readTables(text) {
  const lines = text.split("\n");
  const tables = [];
  let inFence = false;
  for (let index = 0; index < lines.length; index += 1) {
    if (lines[index].trimStart().startsWith("```")) inFence = !inFence;
    if (inFence || !HEADER.test(lines[index].trim()) || !SEPARATOR.test((lines[index + 1] ?? "").trim())) continue;
    const table = { line: index + 1, steps: [] };
    let row = index + 2;
    for (; row < lines.length && lines[row].trim().startsWith("|"); row += 1) {
      const cells = cellsOf(lines[row]);
      const files = [...(cells[1] ?? "").matchAll(/`([^`]+)`/g)].map((match) => match[1].trim().replace(/^\.\//, ""));
      table.steps.push({ line: row + 1, label: cells[0] || String(table.steps.length + 1), files, exempt: NO_IMPORT.test(lines[row]), text: lines[row] });
    }
    tables.push(table);
    index = row - 1;
  }
  return tables;
}

/** What a source file imports, as repository-relative paths of files that exist. */
const importCache = new Map();
function importsOf(file) {
  if (importCache.has(file)) return importCache.get(file);
  const source = readFileSync(path.join(ROOT, file), "utf8")
    .replace(/\/\*[\s\S]*?\*\//g, "")
    .replace(/^\s*\/\/.*$/gm, "");
  const specifiers = [
    ...source.matchAll(/\b(?:import|export)\s+(?:type\s+)?(?:[\w*{}\s,$]+?\s+from\s*)?["']([^"'\n]+)["']/g),
    ...source.matchAll(/\b(?:import|require)\s*\(\s*["'`]([^"'`\n]+)["'`]\s*[),]/g),
  ].map((match) => match[1]);
  const out = new Set();
  for (const specifier of specifiers) {
    const target = resolveImport(file, specifier);
    if (target !== null) out.add(target);
  }
  importCache.set(file, out);
  return out;
}

function resolveImport(fromFile, specifier) {
  let base;
  if (specifier.startsWith("@/")) base = specifier.slice(2);
  else if (specifier.startsWith("./") || specifier.startsWith("../")) base = path.join(path.dirname(fromFile), specifier);
  else return null;
  base = path.normalize(base);
  const candidates = EXTENSIONS.map((extension) => base + extension);
  // TypeScript's ESM style: `./x.js` names x.ts.
  if (/\.m?js$/.test(base)) candidates.push(base.replace(/\.m?js$/, ".ts"), base.replace(/\.m?js$/, ".tsx"));
  const found = candidates.find(isFile);
  return found === undefined ? null : found.split(path.sep).join("/");
}

const SOURCE = /\.(ts|tsx|mjs|js|cjs)$/;
const connects = (fromFiles, toFiles) => fromFiles.some((from) => SOURCE.test(from) && toFiles.some((to) => importsOf(from).has(to)));

const docText = readFileSync(path.join(ROOT, DOC), "utf8");
const tables = readTables(docText);
const problems = [];
let stepCount = 0;
let fileCount = 0;
for (const table of tables) {
  const distinct = new Set();
  let previous = null;
  const byLabel = new Map();
  for (const step of table.steps) {
    stepCount += 1;
    if (step.files.length === 0) problems.push(`${DOC}:${step.line}: step ${step.label} names no file in its file cell`);
    for (const file of step.files) {
      distinct.add(file);
      if (!isFile(file)) problems.push(`${DOC}:${step.line}: step ${step.label}: ${file} does not exist${existsSync(path.join(ROOT, file)) ? " as a file (it is a folder)" : ""}`);
    }
    const present = step.files.filter(isFile);
    const from = step.text.match(/\(from (\d+)\)/);
    if (from !== null) {
      previous = byLabel.get(from[1]) ?? null;
      if (previous === null) problems.push(`${DOC}:${step.line}: step ${step.label} says (from ${from[1]}) but no earlier step of its table is ${from[1]}`);
    }
    if (previous !== null && !step.exempt && present.length > 0 && previous.present.length > 0) {
      if (!connects(present, previous.present) && !connects(previous.present, present)) {
        problems.push(`${DOC}:${step.line}: step ${step.label} is not in the import path of step ${previous.label}: none of ${present.join(", ")} imports one of ${previous.present.join(", ")} or is imported by one (a step reached at run time only says "(no import: REASON)")`);
      }
    }
    previous = { label: step.label, present };
    byLabel.set(step.label, previous);
  }
  fileCount += distinct.size;
  if (distinct.size > MAX_FILES_PER_TABLE) problems.push(`${DOC}:${table.line}: the walk names ${distinct.size} distinct files, more than ${MAX_FILES_PER_TABLE}; shorten it`);
}

if (tables.length === 0) problems.push(`${DOC}:1: no walk table (a header row \`| # | file | what happens there |\`)`);
if (problems.length > 0) {
  for (const problem of problems) console.error(problem);
  console.error(`check-architecture-walk: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  process.exit(1);
}
console.log(`check-architecture-walk: ${DOC}: ${tables.length} table${tables.length === 1 ? "" : "s"}, ${stepCount} steps, ${fileCount} files, each step in the import path of the one before`);
