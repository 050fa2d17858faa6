/**
 * npm run bench:ranks -- [--entries 1000] [--samples 4633] [--runs 5]
 *
 * Times the paired-test ranks of protocol section 13 (lib/core/ranking/paired-ranks.ts)
 * for one leaderboard view: McNemar between every pair of entries on bitset
 * outcome vectors, Holm in each entry's family, ranks. Pure computation on
 * seeded random vectors (accuracies spread from 5% to 60%, like a real board);
 * prints the median and the spread of several runs. bench:leaderboard prints
 * the same figure first.
 */
import { integerOption, parseCommandLine } from "../command-line";
import { packBits } from "@/lib/core/scoring/bitset";
import { computePairedRanks, type RankedSystem } from "@/lib/core/ranking/paired-ranks";
import { formatCount, formatDecimal } from "@/lib/core/format/numbers";

export type RankBenchResult = { entries: number; samples: number; pairs: number; runsMs: number[]; medianMs: number };

function seededSystems(entries: number, samples: number): RankedSystem[] {
  let state = 0x9e3779b9;
  const next = () => {
    state = (Math.imul(state ^ (state >>> 15), 0x2c1b3c6d) + 0x297a2d39) >>> 0;
    return state / 2 ** 32;
  };
  return Array.from({ length: entries }, (_, index) => {
    const accuracy = 0.05 + (0.55 * index) / Math.max(1, entries - 1);
    return { id: `entry-${index}`, bits: packBits(Array.from({ length: samples }, () => (next() < accuracy ? 1 : 0))) };
  });
}

export function benchRanks(options: { entries: number; samples: number; runs: number }): RankBenchResult {
  const systems = seededSystems(options.entries, options.samples);
  const runsMs: number[] = [];
  for (let run = 0; run < options.runs; run += 1) {
    const started = performance.now();
    computePairedRanks(systems);
    runsMs.push(performance.now() - started);
  }
  const sorted = [...runsMs].sort((a, b) => a - b);
  return {
    entries: options.entries,
    samples: options.samples,
    pairs: (options.entries * (options.entries - 1)) / 2,
    runsMs,
    medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0,
  };
}

export function formatRankBench(result: RankBenchResult): string {
  const runs = result.runsMs.map((ms) => formatDecimal(ms, 0)).join(", ");
  return (
    `Paired-test ranks (section 13): ${formatCount(result.entries)} entries x ${formatCount(result.samples)} samples ` +
    `(${formatCount(result.pairs)} pairs): median ${formatDecimal(result.medianMs, 0)} ms over ${result.runsMs.length} runs (${runs} ms)`
  );
}

if (require.main === module) {
  const command = parseCommandLine({
    name: "npm run bench:ranks",
    usage: "Usage: npm run bench:ranks [-- --entries N] [--samples N] [--runs N]\nTimes the paired-test ranks of one view (defaults: 1000 entries, 4633 samples, 5 runs).",
    options: { entries: { type: "string" }, samples: { type: "string" }, runs: { type: "string" } },
  });
  const { values } = command;
  const entries = integerOption(command, "entries", values.entries, { min: 1, fallback: 1000 });
  const samples = integerOption(command, "samples", values.samples, { min: 1, fallback: 4633 });
  const runs = integerOption(command, "runs", values.runs, { min: 1, fallback: 5 });
  console.log(formatRankBench(benchRanks({ entries, samples, runs })));
}
