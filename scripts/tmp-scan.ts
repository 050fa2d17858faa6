import { readFileSync } from "node:fs";
import { readRelease } from "@/lib/dataset/read-release";
import { buildGold, buildKbIndex } from "@/lib/scoring/gold";
import { prepareClosedScan, scanClosedPredictions } from "@/lib/scoring/scan-closed-predictions";
async function main() { const r = await readRelease("/tmp/speed/full", { splits: ["test"], isMetaOptional: true, isLeakageSkipped: true });
if (!r.ok) throw new Error("bad");
const kb = buildKbIndex(r.release.entities); const gold = buildGold(r.release.samples.test, kb);
const ctx = prepareClosedScan(gold, kb);
const bytes = readFileSync("/tmp/speed/p0.jsonl");
for (let i = 0; i < 3; i++) { const t = performance.now(); const c = scanClosedPredictions(bytes, ctx); console.log(c === null ? "null" : c.length, (performance.now() - t).toFixed(1), "ms"); }
{
  const text = bytes.toString("utf8");
  for (let i = 0; i < 3; i++) { const t = performance.now(); let n = 0; for (const line of text.split("\n")) { if (line) { JSON.parse(line); n++; } } console.log("json", n, (performance.now() - t).toFixed(1), "ms"); }
}
}
void main();
