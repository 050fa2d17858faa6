/**
 * Writes a synthetic prediction file for one split of a gold release.
 *
 *   npm run predictions:synth -- --release DIR --split dev|test --track open|closed \
 *       --accuracy 0.35 [--seed N] [--ranking-length 100] --out FILE
 */
import { writeFile } from "node:fs/promises";
import { choiceOption, integerOption, parseCommandLine, requiredOption } from "../command-line";
import { readRelease } from "@/lib/platform/io/read-release";
import { DEFAULT_RANKING_LENGTH, MAX_RANKING_LENGTH, synthesizePredictions } from "@/testing/synthetic/synth-predictions";

const USAGE = `Usage: npm run predictions:synth -- --release DIR --split dev|test --track open|closed
           --accuracy A [--seed N] [--ranking-length L] --out FILE

Writes one JSON line per sample of the split: {"id","prediction"} (open track)
or {"id","ranking"} (closed track). Deterministic for a seed.

  --release DIR         gold release directory (dataset.json, kb.jsonl, DIR/SPLIT.jsonl)
  --split SPLIT         dev or test
  --track TRACK         open or closed
  --accuracy A          share in [0, 1] answered exactly (open) or with the gold at rank 1 (closed)
  --seed N              PRNG seed, an integer 0..4294967295 (default 42)
  --ranking-length L    closed track: QIDs per ranking, 1..${MAX_RANKING_LENGTH} (default ${DEFAULT_RANKING_LENGTH})
  --out FILE            file to write (overwritten)
  -h, --help            show this help`;

const MAX_PROBLEMS_SHOWN = 50;

async function main(): Promise<number> {
  const command = parseCommandLine({
    name: "npm run predictions:synth",
    usage: USAGE,
    options: {
      release: { type: "string" },
      split: { type: "string" },
      track: { type: "string" },
      accuracy: { type: "string" },
      seed: { type: "string" },
      "ranking-length": { type: "string" },
      out: { type: "string" },
    },
  });
  const { values } = command;
  const accuracy = values.accuracy === undefined || values.accuracy.trim() === "" ? Number.NaN : Number(values.accuracy);
  if (!(accuracy >= 0 && accuracy <= 1)) command.fail(`--accuracy must be a number in [0, 1], got ${values.accuracy === undefined ? "nothing" : `"${values.accuracy}"`}`);
  const args = {
    release: requiredOption(command, "release", values.release, "DIR"),
    split: choiceOption(command, "split", values.split, ["dev", "test"]),
    track: choiceOption(command, "track", values.track, ["open", "closed"]),
    accuracy,
    seed: integerOption(command, "seed", values.seed, { min: 0, max: 4294967295, fallback: 42 }),
    rankingLength: integerOption(command, "ranking-length", values["ranking-length"], { min: 1, max: MAX_RANKING_LENGTH, fallback: DEFAULT_RANKING_LENGTH }),
    out: requiredOption(command, "out", values.out, "FILE"),
  };
  const loaded = await readRelease(args.release, { splits: [args.split] });
  if (!loaded.ok) {
    console.error(`${args.release}: not a valid release (${loaded.problems.length} problem${loaded.problems.length === 1 ? "" : "s"}):`);
    for (const problem of loaded.problems.slice(0, MAX_PROBLEMS_SHOWN)) {
      console.error(`${problem.file}${problem.line === undefined ? "" : `:${problem.line}`}: ${problem.message}`);
    }
    if (loaded.problems.length > MAX_PROBLEMS_SHOWN) {
      console.error(`... and ${loaded.problems.length - MAX_PROBLEMS_SHOWN} more`);
    }
    return 2;
  }
  const lines = synthesizePredictions({
    samples: loaded.release.samples[args.split],
    entities: loaded.release.entities,
    track: args.track,
    accuracy: args.accuracy,
    seed: args.seed,
    rankingLength: args.rankingLength,
  });
  await writeFile(args.out, lines.length > 0 ? `${lines.join("\n")}\n` : "", "utf8");
  console.log(
    `Wrote ${lines.length} ${args.track}-track predictions for ${args.split} (accuracy ${args.accuracy}, seed ${args.seed}) to ${args.out}`,
  );
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
