/**
 * The layer rules (.dependency-cruiser.cjs, through scripts/ci/check-boundaries.mjs and the bare
 * depcruise command) and knip.json, run for real on tiny projects in the temporary folder: a clean
 * tree passes, and each kind of violation fails naming its rule.
 */
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const REPO = path.resolve(__dirname, "../..");
const WRAPPER = path.join(REPO, "scripts/ci/check-boundaries.mjs");
const DEPCRUISE = path.join(REPO, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const KNIP = path.join(REPO, "node_modules/knip/bin/knip.js");
const roots: string[] = [];

const TSCONFIG = {
  compilerOptions: { target: "ES2022", module: "esnext", moduleResolution: "bundler", strict: true, jsx: "react-jsx", noEmit: true, paths: { "@/*": ["./*"] } },
  include: ["**/*.ts", "**/*.tsx"],
};

/** A layered tree that breaks no rule: each layer imports the one below, through the alias and relatively, .ts, .tsx and .mjs. */
const CLEAN: Record<string, string> = {
  "lib/core/a.ts": 'import { createHmac } from "node:crypto";\nimport { z } from "zod";\nimport { b } from "./b";\nexport const a = () => z.string().parse(createHmac("sha256", "k").update(b).digest("hex"));\n',
  "lib/core/b.ts": 'export const b = "b";\n',
  "lib/platform/db.ts": 'import { a } from "@/lib/core/a";\nexport const db = () => a();\n',
  "lib/domain/x/op.ts": 'import { db } from "@/lib/platform/db";\nimport { b } from "../../core/b";\nimport { other } from "@/lib/domain/y/other";\nexport const op = () => db() + b + other;\n',
  "lib/domain/y/other.ts": 'import type { Row } from "@/lib/platform/types";\nexport const other: Row = "y";\n',
  "lib/platform/types.ts": "export type Row = string;\n",
  "lib/web/route.ts": 'import { op } from "@/lib/domain/x/op";\nimport { routing } from "@/lib/web/routing.mjs";\nimport { View } from "@/lib/web/view";\nexport const route = () => [op(), routing, View];\n',
  "lib/web/routing.mjs": 'export const routing = "r";\n',
  "lib/web/view.tsx": "export const View = () => <p>v</p>;\n",
  "lib/client/cli.ts": 'import { readFileSync } from "node:fs";\nimport { b } from "@/lib/core/b";\nexport const cli = () => readFileSync(b);\n',
  "app/page.tsx": 'import { route } from "@/lib/web/route";\nexport default function Page() {\n  return <p>{String(route())}</p>;\n}\n',
};

function makeProject(files: Record<string, string>): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "check-boundaries-"));
  roots.push(root);
  writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify(TSCONFIG));
  writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "fixture", private: true, dependencies: { zod: "*", "server-only": "*" } }));
  // The packages resolve as in the repository (the rules match them resolved and unresolved alike).
  symlinkSync(path.join(REPO, "node_modules"), path.join(root, "node_modules"), "dir");
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** Runs node with args in cwd; the tests run side by side (each tool takes a second or two to start). */
function run(args: string[], cwd: string): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd, timeout: 30_000 });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, output }));
  });
}

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe.concurrent("check-boundaries (dependency-cruiser with .dependency-cruiser.cjs)", { timeout: 30_000 }, () => {
  it("passes a layered tree, `@/` imports of .ts, .tsx and .mjs resolved", async () => {
    const root = makeProject(CLEAN);
    const { status, output } = await run([WRAPPER, "--cwd", root, "--domain-module-cycles", "app", "lib"], root);
    expect(output).toMatch(/check-boundaries: 1[0-9] modules, \d+ dependencies, no violations/);
    expect(status).toBe(0);
  });

  it("fails each violation, naming its rule", async () => {
    const root = makeProject({
      ...CLEAN,
      // A cycle inside one layer.
      "lib/domain/x/cycle-a.ts": 'import { cb } from "./cycle-b";\nexport const ca = () => cb;\n',
      "lib/domain/x/cycle-b.ts": 'import { ca } from "@/lib/domain/x/cycle-a";\nexport const cb = () => ca;\n',
      // Core reaching up, into I/O and into the server.
      "lib/core/up.ts": 'import { db } from "@/lib/platform/db";\nexport const up = db;\n',
      "lib/core/io.ts": 'import { readFileSync } from "node:fs";\nexport const io = readFileSync;\n',
      "lib/core/server.ts": 'import "server-only";\nimport { join } from "path";\nexport const server = join;\n',
      "lib/core/util.ts": 'import { inspect } from "node:util";\nexport const util = inspect;\n',
      // Platform reaching into domain, domain into web, web into client, lib into app, client into platform.
      "lib/platform/x.ts": 'import { y } from "@/lib/domain/y";\nexport const x = y;\n',
      "lib/domain/y.ts": 'export const y = "y";\n',
      "lib/domain/x/to-web.ts": 'import { route } from "../../web/route";\nexport const toWeb = route;\n',
      "lib/web/to-client.ts": 'import { cli } from "@/lib/client/cli";\nexport const toClient = cli;\n',
      "lib/web/to-app.ts": 'import Page from "@/app/page";\nexport const toApp = Page;\n',
      "lib/client/to-platform.ts": 'import { db } from "@/lib/platform/db";\nexport const toPlatform = db;\n',
      "lib/platform/typo.ts": 'import { nothing } from "@/lib/core/nothing";\nexport const typo = nothing;\n',
      // Two domain modules importing each other, no file-level cycle.
      "lib/domain/m/p.ts": 'import { q } from "@/lib/domain/n/q";\nexport const p = q;\n',
      "lib/domain/n/r.ts": 'import { s } from "@/lib/domain/m/s";\nexport const r = s;\n',
      "lib/domain/n/q.ts": 'export const q = "q";\n',
      "lib/domain/m/s.ts": 'export const s = "s";\n',
    });
    const { status, output } = await run([WRAPPER, "--cwd", root, "--domain-module-cycles", "app", "lib"], root);
    expect(status).toBe(1);
    const expected = [
      "lib/domain/x/cycle-a.ts -> lib/domain/x/cycle-b.ts: no-circular",
      "lib/core/up.ts -> lib/platform/db.ts: core-imports-only-core",
      "lib/core/io.ts -> fs: core-is-pure",
      "lib/core/server.ts -> path: core-is-pure",
      "lib/core/util.ts -> util: core-imports-only-core",
      "lib/platform/x.ts -> lib/domain/y.ts: platform-below-domain",
      "lib/domain/x/to-web.ts -> lib/web/route.ts: domain-below-web",
      "lib/web/to-client.ts -> lib/client/cli.ts: web-below-entry-points",
      "lib/web/to-app.ts -> app/page.tsx: lib-never-imports-entry-points",
      "lib/client/to-platform.ts -> lib/platform/db.ts: client-uses-core-only",
      "lib/platform/typo.ts -> @/lib/core/nothing: not-to-unresolvable",
      "lib/domain/m/p.ts -> lib/domain/n/q.ts: domain-modules-acyclic",
      "lib/domain/n/r.ts -> lib/domain/m/s.ts: domain-modules-acyclic",
    ];
    for (const line of expected) expect(output).toContain(line);
    expect(output).toMatch(/lib\/core\/server\.ts -> \S*node_modules\/server-only\/\S+: core-is-pure/);
    // The clean part of the tree stays clean.
    expect(output).not.toMatch(/^lib\/(core\/a|platform\/db|domain\/x\/op|web\/route)\.ts ->/m);
  });

  it("fails through the bare depcruise command too", async () => {
    const root = makeProject({ ...CLEAN, "lib/core/a.ts": 'import { db } from "@/lib/platform/db";\nexport const a = () => "a";\nexport const use = db;\n' });
    const { status, output } = await run([DEPCRUISE, "app", "lib", "--config", path.join(REPO, ".dependency-cruiser.cjs")], root);
    expect(status).not.toBe(0);
    expect(output).toContain("core-imports-only-core: lib/core/a.ts → lib/platform/db.ts");
    expect(output).toContain("no-circular: lib/core/a.ts");
  });
});

describe.concurrent("knip (knip.json)", { timeout: 30_000 }, () => {
  const knipTree = (extra: Record<string, string>) => {
    const root = makeProject({
      "lib/core/a.ts": 'export const a = () => "a";\n',
      "lib/platform/db.ts": 'import { a } from "@/lib/core/a";\nexport const db = () => a();\n',
      "app/page.tsx": 'import { db } from "@/lib/platform/db";\nexport default function Page() {\n  return <p>{db()}</p>;\n}\n',
      ...extra,
    });
    writeFileSync(path.join(root, "knip.json"), readFileSync(path.join(REPO, "knip.json")));
    // vitest in the dependencies turns on knip's vitest plugin: *.test.ts are test entries, as in the repository.
    writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "fixture", private: true, devDependencies: { vitest: "*" } }));
    return root;
  };
  const knip = (root: string, ...flags: string[]) => run([KNIP, "--no-progress", "--no-config-hints", "--include", "files,exports", ...flags], root);

  it("passes a tree where every file and export is used", async () => {
    const { status, output } = await knip(knipTree({}));
    expect(output).toBe("");
    expect(status).toBe(0);
  });

  it("fails an unused export, and in production mode an export or a file only a test uses (not an @internal one)", async () => {
    const root = knipTree({
      "lib/core/a.ts": 'export const a = () => "a";\nexport const unusedHelper = () => "u";\nexport const forTestsOnly = () => "t";\n/** @internal */\nexport const keptForTests = () => "k";\n',
      "lib/core/a.test.ts": 'import { forTestsOnly, keptForTests } from "./a";\nimport { onlyTested } from "./only-tested";\nforTestsOnly();\nkeptForTests();\nonlyTested();\n',
      "lib/core/only-tested.ts": 'export const onlyTested = () => "o";\n',
    });
    const [everything, production] = await Promise.all([knip(root), knip(root, "--production")]);
    expect(everything.status).toBe(1);
    expect(everything.output).toMatch(/Unused exports \(1\)[\s\S]*unusedHelper\s+lib\/core\/a\.ts/);
    expect(everything.output).not.toContain("forTestsOnly");

    expect(production.status).toBe(1);
    expect(production.output).toMatch(/Unused files \(1\)\s+lib\/core\/only-tested\.ts/);
    expect(production.output).toMatch(/forTestsOnly\s+lib\/core\/a\.ts/);
    expect(production.output).toMatch(/unusedHelper\s+lib\/core\/a\.ts/);
    // An export kept for tests on purpose carries @internal (a test-only export on purpose).
    expect(production.output).not.toContain("keptForTests");
  });
});
