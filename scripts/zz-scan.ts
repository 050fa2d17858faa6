import { readFileSync } from "node:fs";
import { readRelease } from "@/lib/dataset/read-release";
import { buildGold, buildKbIndex } from "@/lib/scoring/gold";
import { prepareClosedScan, scanClosedPredictions } from "@/lib/scoring/scan-closed-predictions";
import { buildScoreReport } from "@/lib/scoring/score-report";
async function main() {
  let t = performance.now();
  const r = await readRelease("/tmp/clib/release", { splits: ["test"], isMetaOptional: true, isLeakageSkipped: true, isDigestSkipped: true });
  if (!r.ok) throw new Error("x");
  console.log("readRelease", (performance.now() - t).toFixed(1));
  const kb = buildKbIndex(r.release.entities); const gold = buildGold(r.release.samples.test, kb);
  for (let i = 0; i < 6; i++) {
    t = performance.now();
    const ctx = prepareClosedScan(gold, kb);
    const t1 = performance.now();
    const bytes = readFileSync(`/tmp/clib/closed-baseline-${i}.jsonl`);
    const t2 = performance.now();
    const codes = scanClosedPredictions(bytes, ctx);
    const t3 = performance.now();
    const rep = buildScoreReport({ split: "test", gold, outcomes: { track: "closed", codes: codes! } });
    const t4 = performance.now();
    console.log(`prepare ${(t1 - t).toFixed(1)} read ${(t2 - t1).toFixed(1)} scan ${(t3 - t2).toFixed(1)} report ${(t4 - t3).toFixed(1)}`);
  }
}
void main();
