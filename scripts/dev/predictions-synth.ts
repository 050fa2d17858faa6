/**
 * Writes a synthetic prediction file for one split of a gold release.
 *
 *   npm run predictions:synth -- --release DIR --split dev|test --track open|closed \
 *       --accuracy 0.35 [--seed N] [--ranking-length 100] --out FILE
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { z } from "zod";
import { readRelease } from "@/lib/dataset/read-release";
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

const argsSchema = z.object({
  release: z.string({ error: "--release DIR is required" }).min(1, { error: "--release DIR is required" }),
  split: z.enum(["dev", "test"], { error: "--split must be dev or test" }),
  track: z.enum(["open", "closed"], { error: "--track must be open or closed" }),
  accuracy: z.coerce
    .number({ error: "--accuracy must be a number in [0, 1]" })
    .min(0, { error: "--accuracy must be a number in [0, 1]" })
    .max(1, { error: "--accuracy must be a number in [0, 1]" }),
  seed: z.coerce
    .number({ error: "--seed must be an integer" })
    .int({ error: "--seed must be an integer" })
    .min(0, { error: "--seed must be 0..4294967295" })
    .max(4294967295, { error: "--seed must be 0..4294967295" })
    .default(42),
  "ranking-length": z.coerce
    .number({ error: `--ranking-length must be an integer 1..${MAX_RANKING_LENGTH}` })
    .int({ error: `--ranking-length must be an integer 1..${MAX_RANKING_LENGTH}` })
    .min(1, { error: `--ranking-length must be an integer 1..${MAX_RANKING_LENGTH}` })
    .max(MAX_RANKING_LENGTH, { error: `--ranking-length must be an integer 1..${MAX_RANKING_LENGTH}` })
    .default(DEFAULT_RANKING_LENGTH),
  out: z.string({ error: "--out FILE is required" }).min(1, { error: "--out FILE is required" }),
});

const MAX_PROBLEMS_SHOWN = 50;

async function main(): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      options: {
        release: { type: "string" },
        split: { type: "string" },
        track: { type: "string" },
        accuracy: { type: "string" },
        seed: { type: "string" },
        "ranking-length": { type: "string" },
        out: { type: "string" },
        help: { type: "boolean", short: "h" },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    console.error(`${error instanceof Error ? error.message : String(error)}\n\n${USAGE}`);
    return 2;
  }
  if (values.help === true) {
    console.log(USAGE);
    return 0;
  }
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) {
    console.error(`${parsed.error.issues.map((issue) => issue.message).join("\n")}\n\n${USAGE}`);
    return 2;
  }
  const args = parsed.data;
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
    rankingLength: args["ranking-length"],
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
