/**
 * scripts/ci/check-architecture-walk.mjs, run for real on tiny projects in the temporary folder: a walk
 * whose steps import one another passes; a missing file, a step out of the import path of the one
 * before (unless marked `(no import: REASON)`) and a walk of more than 20 files fail.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = path.resolve(__dirname, "check-architecture-walk.mjs");
const roots: string[] = [];

/**
 * Five steps, tied by every kind of import the check reads: a static `@/` import without extension (1 -> 2),
 * a dynamic relative import (2 -> 3), `export ... from` an .mjs (3 -> 4), and `require` from the later
 * step back to the earlier one (5 -> 4).
 */
const FILES: Record<string, string> = {
  "app/api/upload/route.ts": 'import { handle } from "@/lib/web/handler";\nexport const POST = handle;\n',
  "lib/web/handler.ts": 'export async function handle() {\n  const { op } = await import("../domain/x/op");\n  return op();\n}\n',
  "lib/domain/x/op.ts": 'export { queue } from "@/lib/platform/queue.mjs";\nexport const op = () => "op";\n',
  "lib/platform/queue.mjs": 'export const queue = "q";\n',
  "workers/worker.ts": 'const { queue } = require("../lib/platform/queue.mjs");\nexport const worker = queue;\n',
  "lib/domain/x/score.ts": "// import { op } from \"./op\";  (a commented-out import ties nothing)\nexport const score = 1;\n",
  "lib/core/pure.ts": "export const pure = 1;\n",
};

const HEADER = "| # | file | what happens there |\n| --- | --- | --- |\n";
const ROWS = [
  "| 1 | `app/api/upload/route.ts` | The route. |",
  "| 2 | `lib/web/handler.ts` | The handler. |",
  "| 3 | `lib/domain/x/op.ts` | The operation. |",
  "| 4 | `lib/platform/queue.mjs` | The queue. |",
  "| 5 | `workers/worker.ts`, `lib/core/pure.ts` | The worker. |",
];

function makeProject(doc: string, files: Record<string, string> = FILES): string {
  const root = mkdtempSync(path.join(os.tmpdir(), "check-architecture-walk-"));
  roots.push(root);
  writeFileSync(path.join(root, "tsconfig.json"), JSON.stringify({ compilerOptions: { paths: { "@/*": ["./*"] } } }));
  for (const [file, text] of Object.entries({ ...files, "docs/architecture.md": doc })) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    writeFileSync(path.join(root, file), text);
  }
  return root;
}

const walkDoc = (rows: string[]) => `# Architecture\n\nSome text.\n\n${HEADER}${rows.join("\n")}\n\nMore text.\n`;

function check(root: string) {
  const result = spawnSync(process.execPath, [SCRIPT, "--root", root], { encoding: "utf8", timeout: 20_000 });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

describe("check-architecture-walk", () => {
  it("passes a walk whose every step imports, or is imported by, the one before", () => {
    const { status, output } = check(makeProject(walkDoc(ROWS)));
    expect(output).toContain("check-architecture-walk: docs/architecture.md: 1 table, 5 steps, 6 files");
    expect(status).toBe(0);
  });

  it("fails a named file that does not exist, with its line", () => {
    const rows = [...ROWS];
    rows[2] = "| 3 | `lib/domain/x/op.ts`, `lib/domain/x/gone.ts` | The operation. |";
    const { status, output } = check(makeProject(walkDoc(rows)));
    expect(status).toBe(1);
    expect(output).toContain("docs/architecture.md:9: step 3: lib/domain/x/gone.ts does not exist");
  });

  it("fails a step that is not in the import path of the previous step", () => {
    const rows = [...ROWS];
    // score.ts neither imports the handler nor is imported by it (its import is commented out), and op.ts is not imported by it.
    rows[2] = "| 3 | `lib/domain/x/score.ts` | The operation. |";
    const { status, output } = check(makeProject(walkDoc(rows)));
    expect(status).toBe(1);
    expect(output).toContain("docs/architecture.md:9: step 3 is not in the import path of step 2");
    expect(output).toContain("docs/architecture.md:10: step 4 is not in the import path of step 3");
    expect(output).not.toContain("step 5 is not");
  });

  it("lets `(no import: REASON)` exempt a step reached at run time", () => {
    const rows = [...ROWS];
    rows[2] = "| 3 | `lib/domain/x/score.ts` | Reached through the queue (no import: a BullMQ job). |";
    rows[3] = "| 4 | `lib/platform/queue.mjs` | (no import: an HTTP request to the other process) |";
    const { status, output } = check(makeProject(walkDoc(rows)));
    expect(output).toContain("5 steps");
    expect(status).toBe(0);
  });

  it("does not take an empty marker", () => {
    const rows = [...ROWS];
    rows[2] = "| 3 | `lib/domain/x/score.ts` | (no import: ) |";
    const { status, output } = check(makeProject(walkDoc(rows)));
    expect(status).toBe(1);
    expect(output).toContain("step 3 is not in the import path of step 2");
  });

  it("checks a step marked `(from N)` against step N, not the one before", () => {
    // Step 6 returns to the handler's caller: the route (step 1) imports the handler, not the worker (step 5).
    const back = [...ROWS, "| 6 | `lib/web/handler.ts` | (from 1) Back in the route. |"];
    const ok = check(makeProject(walkDoc(back)));
    expect(ok.output).toContain("6 steps");
    expect(ok.status).toBe(0);

    const wrong = [...ROWS, "| 6 | `lib/web/handler.ts` | (from 4) Not called by the queue. |"];
    const failed = check(makeProject(walkDoc(wrong)));
    expect(failed.status).toBe(1);
    expect(failed.output).toContain("step 6 is not in the import path of step 4");

    const unknown = [...ROWS, "| 6 | `lib/web/handler.ts` | (from 9) |"];
    expect(check(makeProject(walkDoc(unknown))).output).toContain("says (from 9) but no earlier step");
  });

  it("fails a walk that names more than 20 files", () => {
    const files: Record<string, string> = {};
    const rows: string[] = [];
    for (let index = 1; index <= 21; index += 1) {
      const file = `lib/domain/chain/step-${index}.ts`;
      files[file] = index === 1 ? "export const step = 1;\n" : `import { step } from "./step-${index - 1}";\nexport const next = step;\n`;
      rows.push(`| ${index} | \`${file}\` | Step ${index}. |`);
    }
    const tooLong = check(makeProject(walkDoc(rows), files));
    expect(tooLong.status).toBe(1);
    expect(tooLong.output).toContain("docs/architecture.md:5: the walk names 21 distinct files, more than 20");
    expect(tooLong.output).not.toContain("not in the import path");

    const twenty = check(makeProject(walkDoc(rows.slice(0, 20)), files));
    expect(twenty.output).toContain("20 steps, 20 files");
    expect(twenty.status).toBe(0);
  });
});
