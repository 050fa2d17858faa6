import { readFileSync } from "node:fs";
import { readScoringRelease } from "@/lib/dataset/read-scoring-release";
import { buildGold, buildKbIndex } from "@/lib/scoring/gold";
import { closedOutcomesOf, parseClosedRankings, prepareClosedScan } from "@/lib/scoring/scan-closed-predictions";
async function main() {
  const release = await readScoringRelease("/tmp/cli2-data/release", "test");
  if (!release) throw new Error("no release");
  const kb = buildKbIndex(release.entities);
  const gold = buildGold(release.samples, kb);
  const context = prepareClosedScan(gold, kb);
  const parsed = Array.from({ length: 20 }, (_, i) => parseClosedRankings(readFileSync(`/tmp/cli2-data/b${i}.jsonl`))!);
  for (const [i, file] of parsed.entries()) {
    const c0 = process.cpuUsage();
    const codes = closedOutcomesOf(file, context);
    const c = process.cpuUsage(c0);
    console.log(i, ((c.user + c.system) / 1000).toFixed(1), "ms", codes?.length);
  }
}
void main();
