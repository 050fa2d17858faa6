/**
 * npm run baselines [-- --release ID]
 *
 * Computes the platform's baselines (BM25 over names, BM25 over names and
 * descriptions, BM25 top name for the open track, the training-frequency prior)
 * for the dev and test splits of the active release (or --release ID) and
 * queues them for scoring as baseline submissions. Identical baselines are not
 * submitted twice. A running worker scores them.
 */
import { runMain } from "@/lib/server/close-connections";
import { parseArgs } from "node:util";
import { runBaselines } from "@/lib/baselines/run-baselines";
import { getActiveRelease } from "@/lib/releases/get-release";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { release: { type: "string" }, help: { type: "boolean" } } });
  if (values.help) {
    console.log("Usage: npm run baselines [-- --release RELEASE_ID]\nComputes and queues the baselines of the active release (or the given one).");
    return 0;
  }
  const releaseId = values.release ?? (await getActiveRelease()).id;
  const started = performance.now();
  const results = await runBaselines(releaseId);
  for (const result of results) console.log(`${result.split.padEnd(4)} ${result.key.padEnd(22)} ${result.outcome.padEnd(9)} ${result.submissionId}`);
  console.log(`Baselines computed in ${((performance.now() - started) / 1000).toFixed(1)} s; a worker scores the new ones.`);
  return 0;
}

runMain(main);
