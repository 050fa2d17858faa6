/**
 * npm run rescore [-- --all]
 *
 * Queues every submission whose stored score is stale (its platform scoring
 * version, PLATFORM_SCORING_VERSION, or gold checksum differs from the
 * current ones, protocol section 10), or with
 * --all every scored submission. A running worker re-scores them. Safe to run
 * again: submissions already waiting for the worker are not queued twice.
 */
import { runMain } from "@/lib/web/server/close-connections";
import { parseCommandLine } from "../command-line";
import { PLATFORM_SCORING_VERSION, SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { queueStaleScores } from "@/lib/domain/scoring/queue-stale-scores";

async function main(): Promise<number> {
  const { values } = parseCommandLine({
    name: "npm run rescore",
    usage: "Usage: npm run rescore [-- --all]\nQueues stale scores (scorer version or gold checksum changed) for re-scoring; --all queues every scored submission.",
    options: { all: { type: "boolean" } },
  });
  const { queued, pending, invalid } = await queueStaleScores({ includeCurrent: values.all === true });
  // What is stored is platform scoring's (the scorer's report plus the slices' reports); the report itself is the scorer's.
  const versions = `platform scoring ${PLATFORM_SCORING_VERSION}, whose reports are those of scorer ${SCORER_VERSION}`;
  if (queued.length + pending.length + invalid.length === 0) {
    console.log(`No stale scores (${versions}): nothing to re-score.`);
    return 0;
  }
  console.log(`Queued ${queued.length} submission(s) for re-scoring to ${versions}.`);
  if (pending.length > 0) console.log(`${pending.length} stale submission(s) were already waiting for the worker.`);
  if (invalid.length > 0) console.log(`${invalid.length} stale submission(s) failed validation under the current rules and keep their old score (marked stale).`);
  return 0;
}

runMain(main);
