/**
 * npm run bench:ranks -- [--entries 1000] [--samples 4633] [--runs 5]
 *
 * Times the paired-test ranks of protocol section 13 (lib/scoring/paired-ranks.ts)
 * for one leaderboard view: McNemar between every pair of entries on bitset
 * outcome vectors, Holm in each entry's family, ranks. Pure computation on
 * seeded random vectors (accuracies spread from 5% to 60%, like a real board);
 * prints the median and the spread of several runs. bench:leaderboard prints
 * the same figure first.
 */
import { parseArgs } from "node:util";
import { packBits } from "@/lib/scoring/bitset";
import { computePairedRanks, type RankedSystem } from "@/lib/scoring/paired-ranks";
import { formatCount, formatDecimal } from "@/lib/format/numbers";

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
  const { values } = parseArgs({
    options: { entries: { type: "string", default: "1000" }, samples: { type: "string", default: "4633" }, runs: { type: "string", default: "5" } },
  });
  console.log(formatRankBench(benchRanks({ entries: Number(values.entries), samples: Number(values.samples), runs: Number(values.runs) })));
}
