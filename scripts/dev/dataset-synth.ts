/**
 * Writes a synthetic IRC-Bench gold release (kb.jsonl, train/dev/test.jsonl
 * with qid, dataset.json) and prints its sizes.
 *
 *   npm run dataset:synth -- --out DIR [--seed N] [--size full|small]
 */
import path from "node:path";
import { choiceOption, integerOption, parseCommandLine, requiredOption } from "../command-line";
import { readRelease } from "@/lib/platform/io/read-release";
import { ENTITY_TYPES, SPLITS } from "@/lib/core/dataset/release-schema";
import { summarizeRelease, type SplitCounts } from "@/testing/synthetic/summarize-release";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";

const USAGE = `Usage: npm run dataset:synth -- --out DIR [--seed N] [--size full|small]

Writes a synthetic gold release shaped like IRC-Bench into DIR.

  --out DIR        directory to write (created if missing; files are overwritten)
  --seed N         PRNG seed, an integer 0..4294967295 (default 42)
  --size SIZE      full (the paper's 25,136 samples, 12,337 entities) or
                   small (about 1/20 of that) (default full)
  -h, --help       show this help`;

function row(label: string, counts: SplitCounts): string {
  const cells = SPLITS.map((split) => String(counts[split]).padStart(8));
  const total = SPLITS.reduce((sum, split) => sum + counts[split], 0);
  return `  ${label.padEnd(20)}${cells.join("")}${String(total).padStart(9)}`;
}

function header(title: string): string {
  return `  ${title.padEnd(20)}${SPLITS.map((split) => split.padStart(8)).join("")}${"total".padStart(9)}`;
}

async function main(): Promise<number> {
  const command = parseCommandLine({
    name: "npm run dataset:synth",
    usage: USAGE,
    options: { out: { type: "string" }, seed: { type: "string" }, size: { type: "string" } },
  });
  const { values } = command;
  const out = requiredOption(command, "out", values.out, "DIR");
  const seed = integerOption(command, "seed", values.seed, { min: 0, max: 4294967295, fallback: 42 });
  const size = choiceOption(command, "size", values.size, ["full", "small"], "full");
  const dir = path.resolve(out);
  const release = synthesizeRelease({ seed, size });
  await writeRelease(dir, release);

  const check = await readRelease(dir);
  if (!check.ok) {
    console.error(`the written release does not validate (a generator bug):`);
    for (const problem of check.problems.slice(0, 20)) {
      console.error(`${problem.file}${problem.line === undefined ? "" : `:${problem.line}`}: ${problem.message}`);
    }
    return 1;
  }

  const summary = summarizeRelease(release);
  const lines = [
    `Wrote ${release.meta.name} ${release.meta.version} to ${dir}`,
    `KB: ${summary.kb.entities} entities, ${summary.kb.withAliases} with aliases; leakage findings: ${check.leakage.length}`,
    "",
    header("samples"),
    row("all", summary.samples),
    ...ENTITY_TYPES.map((type) => row(type, summary.byType[type].samples)),
    "",
    header("entities"),
    row("all", summary.entities),
    ...ENTITY_TYPES.map((type) => row(type, summary.byType[type].entities)),
    "",
    header("collection samples"),
    ...Object.entries(summary.byCollection).map(([collection, counts]) => row(collection, counts)),
    "",
    "Files (SHA-256):",
    ...Object.entries(check.release.files).map(([file, digest]) => `  ${file.padEnd(14)}${String(digest.bytes).padStart(11)} B  ${digest.sha256}`),
  ];
  console.log(lines.join("\n"));
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
