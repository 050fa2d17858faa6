/**
 * npm run rescore [-- --all]
 *
 * Queues every submission whose stored score is stale (its scorer version or
 * gold checksum differs from the current ones, protocol section 10), or with
 * --all every scored submission. A running worker re-scores them.
 */
import { runMain } from "@/lib/server/close-connections";
import { parseArgs } from "node:util";
import { db } from "@/lib/db";
import { findStaleSubmissions } from "@/lib/submissions/find-stale-submissions";
import { enqueueScoring } from "@/lib/submissions/scoring-queue";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { all: { type: "boolean" }, help: { type: "boolean" } } });
  if (values.help) {
    console.log("Usage: npm run rescore [-- --all]\nQueues stale scores (scorer version or gold checksum changed) for re-scoring; --all queues every scored submission.");
    return 0;
  }
  const ids = await findStaleSubmissions({ includeCurrent: values.all === true });
  const generation = Date.now();
  for (const id of ids) {
    await db.submission.update({ where: { id }, data: { status: "QUEUED", queuedAt: new Date() } });
    await enqueueScoring(id, generation);
  }
  console.log(ids.length === 0 ? "No stale scores: nothing to re-score." : `Queued ${ids.length} submission(s) for re-scoring.`);
  return 0;
}

runMain(main);
