/**
 * node scripts/ci/check-lib-imports.mjs
 *
 * lib/ holds what the running platform uses; synthetic data, seeders and test
 * support live in testing/. This check follows the imports from the
 * platform's entry points (the app, its components, the scoring worker, the
 * Next.js instrumentation hook, the offline scorer and the operator scripts
 * that `npm run up` and a maintainer run) and fails, naming the files, when
 *
 * - a module in lib/ is reached from none of them: it is imported only by
 *   tests, benchmarks or seeders and belongs in testing/;
 * - an export of a module in lib/ is imported by no platform module: it is
 *   dead (delete it, or drop the `export` when its own file uses it), or it is
 *   imported only by tests, benchmarks or seeders (move it to testing/). Code
 *   the platform runs in its own file and a test imports too is used; so are
 *   the few test hooks listed in FOR_TESTS;
 * - a platform module imports from testing/.
 *
 * Imports are read with the TypeScript parser: named, default and namespace
 * imports (`ns.name`), type-only ones, `export { x } from` and `export *`
 * (followed to the module that declares the name), `import()` (destructured,
 * `(await import(m)).name`, otherwise every export) and `typeof import(m)`.
 * The exports of the entry points themselves (a page's default export, a
 * route's GET, `metadata`, `dynamic`...) are the framework's: only lib/ is
 * checked. Run by `npm run lint`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** Entry points of the running platform (folders are walked whole). */
const PLATFORM_ROOTS = [
  "app",
  "components",
  "workers",
  "instrumentation.ts",
  "next.config.ts",
  // The production web server, and the offline scorer and the client participants download.
  "scripts/server/web-server.mjs",
  "scripts/participant/score.ts",
  "scripts/participant/client.ts",
  // The operator commands of the README.
  "scripts/ops/dataset-import.ts",
  "scripts/ops/reported-import.ts",
  "scripts/ops/baselines.ts",
  "scripts/ops/demo-entries.ts",
  "scripts/ops/rescore.ts",
  "scripts/ops/files-migrate.ts",
  "scripts/ops/user-create.ts",
];

/** Everything else that may import from lib/: tests, benchmarks, seeders, build and dev scripts, configs. */
const OTHER_ROOTS = ["lib", "testing", "tests", "e2e", "scripts", "playwright.config.ts", "vitest.config.ts", "prisma.config.ts", "eslint.config.mjs"];

/**
 * Exports of lib/ that only tests import, kept there on purpose; every other
 * test-only export fails the check. Either they reset or read the module's own
 * private state (a cache, a thread pool), which testing/ cannot reach, or they
 * are the whole-input reference of platform code the tests compare a fast path
 * against. A new entry needs the same reason.
 */
const FOR_TESTS = {
  // Module state: caches and pools the tests reset or inspect.
  "lib/leaderboard/get-leaderboard.ts": ["clearLeaderboardCache", "setLeaderboardStampTtl"],
  "lib/public-cache/public-body-cache.ts": ["clearLocalPublicBodies"],
  "lib/submissions/load-gold.ts": ["clearGoldCache"],
  "lib/submissions/preflight-pool.ts": ["runningPreflightThreads"],
  // The list lib/api/openapi.test.ts checks every undocumented route file against.
  "lib/api/operations.ts": ["UNDOCUMENTED_ROUTES"],
  // Whole-input and single-case entry points into platform scoring and validation code.
  "lib/baselines/bm25.ts": ["search"],
  "lib/dataset/find-leakage.ts": ["findLeakedTerm"],
  "lib/dataset/validate-release.ts": ["validateRelease"],
  "lib/public-cache/cached-response.ts": ["cachedJsonResponse"],
  "lib/scoring/bitset.ts": ["discordantCounts"],
  "lib/scoring/normalize.ts": ["tokens"],
  "lib/scoring/open-world.ts": ["tierOf"],
  "lib/scoring/scan-closed-predictions.ts": ["scanClosedPredictions"],
  "lib/scoring/validate-predictions.ts": ["validatePredictionLines", "validatePredictionText"],
  "lib/slices/slice-membership.ts": ["isFeedbackSample"],
};

const SOURCE = /\.(ts|tsx|mjs|js)$/;
const SKIPPED_FOLDERS = new Set(["node_modules", "generated", ".next", "dist", ".data"]);

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
const isLib = (file) => file.startsWith(`lib${path.sep}`) && !file.endsWith(".d.ts");

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

const hasModifier = (node, kind) => (ts.canHaveModifiers(node) ? (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === kind) : false);

function bindingNames(name) {
  if (ts.isIdentifier(name)) return [name.text];
  return name.elements.flatMap((element) => (ts.isOmittedExpression(element) ? [] : bindingNames(element.name)));
}

/** The names a dynamic `import(m)` takes: destructured, or `(await import(m)).name`; "*" when it cannot tell. */
function dynamicImportNames(call) {
  let node = call;
  while (ts.isParenthesizedExpression(node.parent) || ts.isAwaitExpression(node.parent)) node = node.parent;
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) && parent.initializer === node && ts.isObjectBindingPattern(parent.name)) {
    if (parent.name.elements.some((element) => element.dotDotDotToken)) return "*";
    const names = parent.name.elements.map((element) => element.propertyName ?? element.name);
    return names.every((name) => ts.isIdentifier(name) || ts.isStringLiteral(name)) ? names.map((name) => name.text) : "*";
  }
  if (ts.isPropertyAccessExpression(parent) && parent.expression === node && node !== call) return [parent.name.text];
  return "*";
}

/**
 * One module's exports, its re-exports and what it takes from other modules.
 * exports: name -> { line, isReexport }; reexports: [{ exported, target, name }]; stars: [target];
 * uses: [{ target, names: string[] | "*" }]; identifiers: name -> occurrences outside export lists.
 */
function readModule(file) {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : /\.m?js$/.test(file) ? ts.ScriptKind.JS : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const module = { file, exports: new Map(), reexports: [], stars: [], uses: [], identifiers: new Map(), imports: new Set() };
  const lineOf = (node) => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
  const addExport = (name, node, isReexport = false) => module.exports.set(name, { line: lineOf(node), isReexport });
  const resolve = (specifier) => {
    const target = ts.isStringLiteralLike(specifier) ? resolveImport(file, specifier.text) : null;
    if (target !== null) module.imports.add(target);
    return target;
  };
  const namespaces = new Map();

  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement)) {
      const target = resolve(statement.moduleSpecifier);
      const clause = statement.importClause;
      if (target === null || clause === undefined) continue;
      const names = clause.name ? ["default"] : [];
      const bindings = clause.namedBindings;
      if (bindings && ts.isNamespaceImport(bindings)) namespaces.set(bindings.name.text, target);
      if (bindings && ts.isNamedImports(bindings)) names.push(...bindings.elements.map((element) => (element.propertyName ?? element.name).text));
      module.uses.push({ target, names });
    } else if (ts.isExportDeclaration(statement)) {
      const target = statement.moduleSpecifier ? resolve(statement.moduleSpecifier) : null;
      const clause = statement.exportClause;
      if (statement.moduleSpecifier && target === null) {
        // A package's names, re-exported: this module's own exports as far as lib/ is concerned.
        if (clause && ts.isNamedExports(clause)) for (const element of clause.elements) addExport(element.name.text, element);
      } else if (target !== null && clause === undefined) {
        module.stars.push(target);
      } else if (target !== null && ts.isNamespaceExport(clause)) {
        addExport(clause.name.text, clause, true);
        module.reexports.push({ exported: clause.name.text, target, name: "*" });
      } else if (clause && ts.isNamedExports(clause)) {
        for (const element of clause.elements) {
          const local = (element.propertyName ?? element.name).text;
          addExport(element.name.text, element, target !== null);
          if (target !== null) module.reexports.push({ exported: element.name.text, target, name: local });
        }
      }
    } else if (ts.isExportAssignment(statement)) {
      addExport("default", statement);
    } else if (hasModifier(statement, ts.SyntaxKind.ExportKeyword)) {
      if (hasModifier(statement, ts.SyntaxKind.DefaultKeyword)) addExport("default", statement);
      else if (ts.isVariableStatement(statement)) {
        for (const declaration of statement.declarationList.declarations) for (const name of bindingNames(declaration.name)) addExport(name, declaration);
      } else if (statement.name && ts.isIdentifier(statement.name)) addExport(statement.name.text, statement);
    }
  }

  const visit = (node) => {
    if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments.length > 0) {
      const target = resolve(node.arguments[0]);
      if (target !== null) module.uses.push({ target, names: dynamicImportNames(node) });
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) {
      const target = resolve(node.argument.literal);
      if (target !== null) {
        let qualifier = node.qualifier;
        while (qualifier && ts.isQualifiedName(qualifier)) qualifier = qualifier.left;
        module.uses.push({ target, names: qualifier ? [qualifier.text] : "*" });
      }
    } else if (ts.isIdentifier(node) && !ts.isExportSpecifier(node.parent)) {
      const name = node.text;
      const namespaceTarget = namespaces.get(name);
      const parent = node.parent;
      if (namespaceTarget !== undefined && !ts.isNamespaceImport(parent)) {
        if (ts.isPropertyAccessExpression(parent) && parent.expression === node) module.uses.push({ target: namespaceTarget, names: [parent.name.text] });
        else if (ts.isQualifiedName(parent) && parent.left === node) module.uses.push({ target: namespaceTarget, names: [parent.right.text] });
        else module.uses.push({ target: namespaceTarget, names: "*" });
      }
      // A property's name (`row.name`, `{ name: 1 }`) is not a reference to the module's own `name`.
      const isPropertyName = (ts.isPropertyAccessExpression(parent) && parent.name === node) || ((ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isPropertyDeclaration(parent) || ts.isMethodDeclaration(parent) || ts.isMethodSignature(parent)) && parent.name === node);
      if (!isPropertyName) module.identifiers.set(name, (module.identifiers.get(name) ?? 0) + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return module;
}

const modules = new Map();
const moduleOf = (file) => {
  if (!modules.has(file)) modules.set(file, readModule(file));
  return modules.get(file);
};

// Which modules the running platform reaches.
const reached = new Set();
const queue = PLATFORM_ROOTS.flatMap(walk).filter((file) => !isTestFile(file));
const rootFiles = new Set(queue);
const problems = [];
while (queue.length > 0) {
  const file = queue.pop();
  if (reached.has(file)) continue;
  reached.add(file);
  for (const imported of moduleOf(file).imports) {
    if (imported.startsWith(`testing${path.sep}`)) problems.push(`${file}: imports ${imported}; the running platform must not depend on testing/`);
    if (!reached.has(imported)) queue.push(imported);
  }
}

const libFiles = walk("lib").filter((file) => isLib(file) && !isTestFile(file));
for (const file of libFiles) {
  if (!reached.has(file)) problems.push(`${file}: not used by the running platform (only by tests, scripts or benchmarks); move it to testing/`);
}

// Which exports are used, by the platform and by anything else, following re-exports to the declaring module.
const used = { platform: new Map(), other: new Map() };
function markUsed(side, file, name, seen = new Set()) {
  const key = `${file}\0${name}`;
  if (seen.has(key) || !existsSync(path.join(ROOT, file))) return;
  seen.add(key);
  const module = moduleOf(file);
  const names = name === "*" ? [...module.exports.keys()] : [name];
  if (!used[side].has(file)) used[side].set(file, new Set());
  for (const each of names) used[side].get(file).add(each);
  for (const reexport of module.reexports) if (name === "*" || reexport.exported === name) markUsed(side, reexport.target, reexport.name, seen);
  if (name === "*" || !module.exports.has(name)) for (const star of module.stars) markUsed(side, star, name, seen);
}

const everyFile = new Set([...reached, ...OTHER_ROOTS.flatMap(walk)]);
for (const file of everyFile) {
  const isPlatform = reached.has(file) && !isTestFile(file);
  const module = moduleOf(file);
  for (const use of module.uses) for (const name of use.names === "*" ? ["*"] : use.names) markUsed(isPlatform ? "platform" : "other", use.target, name);
  // An entry point's own re-exports are the framework's (a page re-exporting a lib/ component, say).
  if (rootFiles.has(file)) for (const reexport of module.reexports) markUsed("platform", reexport.target, reexport.name);
}

let exportCount = 0;
for (const file of libFiles.filter((each) => reached.has(each))) {
  for (const [name, { line, isReexport }] of moduleOf(file).exports) {
    exportCount += 1;
    if (used.platform.get(file)?.has(name)) continue;
    const where = `${file}:${line}: export ${name}`;
    const isUsedInFile = !isReexport && (moduleOf(file).identifiers.get(name) ?? 0) > 1;
    // Platform code its own file runs, exported for the unit test beside it, is used by the platform.
    if (used.other.get(file)?.has(name) && (isUsedInFile || FOR_TESTS[file.split(path.sep).join("/")]?.includes(name))) continue;
    if (used.other.get(file)?.has(name)) problems.push(`${where} is used only by tests, benchmarks or seeders; move it to testing/`);
    else if (isReexport) problems.push(`${where} is a re-export nobody imports; remove it`);
    else if (isUsedInFile) problems.push(`${where} is imported by nobody; drop the export keyword (its own file uses it)`);
    else problems.push(`${where} is used by nobody; delete it`);
  }
}

if (problems.length > 0) {
  console.error(`check-lib-imports: ${problems.length} problem${problems.length === 1 ? "" : "s"}`);
  for (const problem of problems.sort()) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`check-lib-imports: ${libFiles.length} files and ${exportCount} exports in lib/, every one used by the running platform`);
