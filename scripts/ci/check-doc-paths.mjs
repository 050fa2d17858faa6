/**
 * node scripts/ci/check-doc-paths.mjs
 *
 * The map must match the ground: every repository path that README.md,
 * CODE_STYLE.md or a page of docs/ names (in `code` or as a relative link)
 * must exist. A path counts when it starts with one of the repository's
 * top-level folders or files and has no wildcard or placeholder in it.
 * Fails, naming each file, line and missing path. Run by `npm run lint`.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const DOCS = ["README.md", "CODE_STYLE.md", ...readdirSync(path.join(ROOT, "docs")).filter((name) => name.endsWith(".md")).map((name) => `docs/${name}`)];
/** Top-level entries a named path may start with; others (URLs, commands, shell paths) are not repository paths. */
const TOP_LEVEL = new Set(readdirSync(ROOT).filter((name) => !name.startsWith(".") || name === ".ci"));
const PLACEHOLDER = /[*<>{}$]|\bID\b|\bVERSION\b|\bNAME\b|\bFILE\b|\bDIR\b|\.\.\.|…/;
/** Made by a build, an install or a run, never committed: named in the docs, absent from a clone. */
const GENERATED = [".data", ".next", "dist", "node_modules", "lib/platform/generated", "test-results", "playwright-report"];
/** An import path without its extension (`lib/platform/db`) names a module: any of these files. */
const MODULE_EXTENSIONS = ["", ".ts", ".tsx", ".mjs", ".js", "/index.ts"];

/** Each repository path a line names: in `code` (a bare file name there names no place) or as a link target. */
function candidates(line) {
  const out = [];
  for (const match of line.matchAll(/`([^`\s]+)`/g)) out.push({ named: match[1], isLink: false });
  for (const match of line.matchAll(/\]\(([^)\s#]+)(?:#[^)]*)?\)/g)) out.push({ named: match[1], isLink: true });
  return out;
}

function resolveNamed(docFile, named, isLink) {
  if (/^[a-z]+:/i.test(named) || named.startsWith("/") || named.startsWith("~")) return null;
  const cleaned = named.replace(/[),.;:]+$/, "").replace(/:\d+(-\d+)?$/, "");
  if (PLACEHOLDER.test(cleaned)) return null;
  // A relative link is relative to its document; a code path is relative to the repository.
  if (cleaned.startsWith("./") || cleaned.startsWith("../")) {
    const fromDoc = path.normalize(path.join(path.dirname(docFile), cleaned));
    return fromDoc.startsWith("..") ? null : fromDoc;
  }
  if (cleaned.startsWith(".") && !cleaned.startsWith(".ci/")) return null;
  if (GENERATED.some((prefix) => cleaned === prefix || cleaned.startsWith(`${prefix}/`))) return null;
  // A bare file name in a link is relative to its document (docs/api.md links to "integrity.md").
  if (!cleaned.includes("/")) return isLink ? path.normalize(path.join(path.dirname(docFile), cleaned)) : null;
  if (!TOP_LEVEL.has(cleaned.split("/")[0])) return null;
  return cleaned;
}

const missing = [];
for (const doc of DOCS) {
  const lines = readFileSync(path.join(ROOT, doc), "utf8").split("\n");
  let inFence = false;
  lines.forEach((line, index) => {
    if (line.trimStart().startsWith("```")) inFence = !inFence;
    if (inFence) return;
    for (const { named, isLink } of candidates(line)) {
      const resolved = resolveNamed(doc, named, isLink);
      if (resolved === null) continue;
      const withoutSlash = resolved.replace(/\/$/, "");
      if (!MODULE_EXTENSIONS.some((extension) => existsSync(path.join(ROOT, withoutSlash + extension)))) missing.push(`${doc}:${index + 1}: ${named} does not exist`);
    }
  });
}

if (missing.length > 0) {
  console.error(`Paths named in the docs that do not exist (${missing.length}):\n${missing.join("\n")}`);
  process.exit(1);
}
console.log(`check-doc-paths: every path named in ${DOCS.length} documents exists`);
