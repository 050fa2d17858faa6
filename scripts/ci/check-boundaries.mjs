/**
 * node scripts/ci/check-boundaries.mjs [--cwd DIR] [--domain-module-cycles] [PATH...]
 *
 * The layer rules of lib/ (.dependency-cruiser.cjs at the repository root): runs dependency-cruiser
 * over app lib components workers scripts instrumentation.ts (or the PATHs given) and prints each
 * violation on one line, `from -> to: rule` (a cycle adds its path), then a count. Exit 1 on any
 * violation, 2 when dependency-cruiser itself fails.
 *
 * --domain-module-cycles adds what dependency-cruiser cannot check: the modules of lib/domain
 * (lib/domain/<module>/) import each other without a cycle (`domain-modules-acyclic`), even when no
 * file-level cycle exists; each import between two modules of one cycle is a line.
 *
 * --cwd DIR runs on another tree with this repository's rules (the fixture tests do); DIR needs a
 * tsconfig.json with the `@/*` path.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CONFIG = path.join(ROOT, ".dependency-cruiser.cjs");
const DEPCRUISE = path.join(ROOT, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const DEFAULT_PATHS = ["app", "lib", "components", "workers", "scripts", "instrumentation.ts"];

const args = process.argv.slice(2);
const domainModuleCycles = args.includes("--domain-module-cycles");
if (domainModuleCycles) args.splice(args.indexOf("--domain-module-cycles"), 1);
let cwd = ROOT;
const cwdIndex = args.indexOf("--cwd");
if (cwdIndex !== -1) {
  cwd = path.resolve(args[cwdIndex + 1]);
  args.splice(cwdIndex, 2);
}
const paths = (args.length > 0 ? args : DEFAULT_PATHS).filter((each) => existsSync(path.join(cwd, each)));

const run = spawnSync(process.execPath, [DEPCRUISE, ...paths, "--config", CONFIG, "--output-type", "json"], { cwd, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 });
let result;
try {
  result = JSON.parse(run.stdout);
} catch {
  console.error(`check-boundaries: dependency-cruiser failed (exit ${run.status})\n${run.stderr}${run.stdout.slice(0, 2000)}`);
  process.exit(2);
}

const lines = [];
for (const violation of result.summary.violations) {
  const rule = violation.rule.name;
  const via = violation.cycle?.length ? ` (cycle: ${[violation.from, ...violation.cycle.map((step) => (typeof step === "string" ? step : step.name))].join(" -> ")})` : "";
  lines.push(`${violation.from} -> ${violation.to}: ${rule}${via}`);
}

// domain-modules-acyclic: the graph of lib/domain/<module> -> lib/domain/<other module>, its strongly connected components.
const DOMAIN = /^lib\/domain\/([^/]+)\//;
const edges = new Map(); // module -> Map(other module -> first file-level edge)
for (const module of result.modules) {
  const from = DOMAIN.exec(module.source)?.[1];
  if (from === undefined) continue;
  for (const dependency of module.dependencies) {
    const to = DOMAIN.exec(dependency.resolved)?.[1];
    if (to === undefined || to === from) continue;
    if (!edges.has(from)) edges.set(from, new Map());
    if (!edges.get(from).has(to)) edges.get(from).set(to, `${module.source} -> ${dependency.resolved}`);
  }
}
const components = !domainModuleCycles ? [] : stronglyConnected([...edges.keys()], (node) => [...(edges.get(node)?.keys() ?? [])]);
for (const component of components.filter((each) => each.length > 1)) {
  const members = new Set(component);
  for (const from of component) {
    for (const [to, edge] of edges.get(from) ?? []) {
      if (members.has(to)) lines.push(`${edge}: domain-modules-acyclic (lib/domain/${from} -> lib/domain/${to}; cycle among ${[...component].sort().join(", ")})`);
    }
  }
}

if (lines.length > 0) {
  for (const line of lines) console.error(line);
  console.error(`check-boundaries: ${lines.length} violation${lines.length === 1 ? "" : "s"} (${result.summary.totalCruised} modules cruised)`);
  process.exit(1);
}
console.log(`check-boundaries: ${result.summary.totalCruised} modules, ${result.summary.totalDependenciesCruised} dependencies, no violations`);

/** Tarjan's algorithm; returns the components as arrays of nodes. */
function stronglyConnected(nodes, next) {
  let counter = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const out = [];
  const visit = (node) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const other of next(node)) {
      if (!index.has(other)) {
        visit(other);
        low.set(node, Math.min(low.get(node), low.get(other)));
      } else if (onStack.has(other)) low.set(node, Math.min(low.get(node), index.get(other)));
    }
    if (low.get(node) === index.get(node)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      out.push(component);
    }
  };
  for (const node of nodes) if (!index.has(node)) visit(node);
  return out;
}
