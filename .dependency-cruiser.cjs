/**
 * The layer rules of lib/, checked by dependency-cruiser (17.x: 18 needs Node 22).
 *
 *   npx depcruise app lib components workers scripts instrumentation.ts --config .dependency-cruiser.cjs
 *   node scripts/ci/check-boundaries.mjs      (the same, one line per violation: `from -> to: rule`)
 *
 * Top to bottom; imports point down only:
 *
 *   app/ components/ workers/ scripts/ instrumentation.ts testing/ tests/ e2e/   entry points and tests
 *   lib/web/**            the HTTP side: may import lib/web, lib/domain, lib/platform, lib/core
 *   lib/domain/<module>   operations:    may import lib/domain, lib/platform, lib/core
 *   lib/platform/**       db, redis, env, logging, stores, queue, caches: lib/platform, lib/core
 *   lib/core/**           the pure core: lib/core, `zod`, `node:crypto`; nothing else
 *   lib/client/**         the participants' command-line client: lib/client, lib/core, node built-ins
 *
 * Each rule below names what it forbids. Paths are relative to the folder depcruise runs in (the
 * repository root); an npm package is matched both resolved (`node_modules/pg/...`, also behind a
 * symlink) and unresolved (`pg`), so a missing install does not hide a violation. The clock and the
 * environment in lib/core (Date.now(), new Date(), process.env) are eslint rules, not import rules.
 */

/** `pkg` and `pkg/sub`, resolved into a node_modules folder or not. */
const npm = (...names) => {
  const alternatives = names.map((name) => name.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")).join("|");
  return `(^|/)node_modules/(${alternatives})(/|$)|^(${alternatives})(/|$)`;
};
/** Node built-ins, with or without the `node:` prefix (depcruise reports `node:fs` as `fs`). */
const builtin = (...names) => `^(node:)?(${names.join("|")})$`;

/** What lib/core may never reach: the server, the database, I/O, the framework. */
const CORE_FORBIDDEN = [
  npm("server-only", "@prisma", ".prisma", "pg", "ioredis", "bullmq", "next", "next-auth", "pino", "prom-client", "@aws-sdk", "busboy"),
  "^lib/(platform/)?generated/",
  builtin("fs", "fs/promises", "child_process", "worker_threads", "net", "http", "https", "os", "path"),
];
/** What lib/core may import: itself, zod, the YAML serializer (pure), HMAC and Buffer. */
const CORE_ALLOWED = ["^lib/core/", npm("zod"), npm("yaml"), builtin("crypto"), builtin("buffer")];

const ENTRY_POINTS = "^(app|components|workers|scripts|testing|tests|e2e)/|^instrumentation\\.ts$";
const GENERATED = "^lib/(platform/)?generated/";

/* global module -- a CommonJS config file, which eslint.config.mjs gives no Node globals */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "core-is-pure",
      comment:
        "lib/core is the pure core: no server-only, Prisma (nor the generated client), pg, ioredis, bullmq, next, next-auth, pino, prom-client, @aws-sdk, busboy, and no fs, child_process, worker_threads, net, http(s), os or path. Pass what it needs in as arguments from lib/platform or lib/domain.",
      severity: "error",
      from: { path: "^lib/core/" },
      to: { path: CORE_FORBIDDEN },
    },
    {
      name: "core-imports-only-core",
      comment: "lib/core may import lib/core, the npm packages zod and yaml, node:crypto and node:buffer; nothing else (no other layer, package or built-in).",
      severity: "error",
      from: { path: "^lib/core/" },
      // What core-is-pure names is reported there, once.
      to: { pathNot: [...CORE_ALLOWED, ...CORE_FORBIDDEN] },
    },
    {
      name: "platform-below-domain",
      comment: "lib/platform (db, redis, env, logging, stores, queue, caches) may import lib/platform and lib/core only: never lib/domain, lib/web or lib/client.",
      severity: "error",
      from: { path: "^lib/platform/", pathNot: GENERATED },
      to: { path: "^lib/", pathNot: ["^lib/(platform|core)/"] },
    },
    {
      name: "domain-below-web",
      comment: "lib/domain (the operations) may import lib/domain, lib/platform and lib/core only: never lib/web or lib/client.",
      severity: "error",
      from: { path: "^lib/domain/" },
      to: { path: "^lib/", pathNot: ["^lib/(domain|platform|core)/", GENERATED] },
    },
    {
      name: "web-below-entry-points",
      comment: "lib/web (route wrapper, public page cache, OpenAPI) may import lib/web, lib/domain, lib/platform and lib/core only: never lib/client.",
      severity: "error",
      from: { path: "^lib/web/" },
      to: { path: "^lib/", pathNot: ["^lib/(web|domain|platform|core)/", GENERATED] },
    },
    {
      name: "client-uses-core-only",
      comment: "lib/client (the command-line client participants download) may import lib/client, lib/core, zod and node built-ins only: no other layer, no other npm package.",
      severity: "error",
      from: { path: "^lib/client/" },
      to: { pathNot: ["^lib/(client|core)/", npm("zod")], dependencyTypesNot: ["core"] },
    },
    {
      name: "lib-never-imports-entry-points",
      comment: "Nothing in lib/ imports app/, components/, workers/, scripts/, instrumentation.ts, testing/, tests/ or e2e/: those sit on top and import lib.",
      severity: "error",
      from: { path: "^lib/" },
      to: { path: ENTRY_POINTS },
    },
    {
      name: "no-circular",
      comment: "No import cycles in app, lib, components, workers or scripts (tests are not cruised). A cycle between layers is a layer violation; within one, split the shared part out.",
      severity: "error",
      from: { path: "^(app|lib|components|workers|scripts)/|^instrumentation\\.ts$", pathNot: GENERATED },
      to: { circular: true },
    },
    {
      name: "not-to-unresolvable",
      comment: "An import that resolves to no file (a typo, a moved module, or an `@/` path the tsconfig alias does not map).",
      severity: "error",
      from: { pathNot: GENERATED },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    // Installed packages and the generated Prisma client show as dependencies but are not cruised;
    // test support is cruised only when something imports it (then lib-never-imports-entry-points sees it).
    doNotFollow: { path: ["(^|/)node_modules/", GENERATED, "^(testing|tests|e2e)/"] },
    exclude: { path: ["(^|/)\\.next/", "^dist/", "\\.(test|int\\.test|spec)\\.[cm]?[jt]sx?$", "(^|/)node_modules/\\.cache/"] },
    // Type-only imports are imports: a type from a lower layer is fine, one from a higher layer is not.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    combinedDependencies: false,
    preserveSymlinks: false,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      mainFields: ["module", "main", "types", "typings"],
      extensions: [".ts", ".tsx", ".d.ts", ".mjs", ".js", ".cjs", ".json"],
    },
    skipAnalysisNotInRules: true,
    reporterOptions: {
      text: { highlightFocused: true },
    },
  },
};
