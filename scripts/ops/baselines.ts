/**
 * npm run baselines [-- --release ID]
 *
 * Computes the platform's baselines (BM25 over names, BM25 over names and
 * descriptions, BM25 top name for the open track, the training-frequency prior)
 * for the dev and test splits of the active release (or --release ID) and
 * queues them for scoring as baseline submissions. Identical baselines are not
 * submitted twice. A running worker scores them.
 */
import { runMain } from "@/lib/web/server/close-connections";
import { parseCommandLine } from "../command-line";
import { runBaselines, type BaselineRunResult } from "@/lib/domain/scoring/run-baselines";
import { getActiveRelease } from "@/lib/domain/releases/get-release";
import { formatDecimal } from "@/lib/core/format/numbers";

/** What a maintainer needs to know of each baseline: whether a worker still has to score it. */
const STATUS_WORDS = { QUEUED: "queued", SCORING: "scoring", SCORED: "scored", FAILED: "failed" } as const;

function describe(result: BaselineRunResult): string {
  const status = STATUS_WORDS[result.status];
  return result.outcome === "created" ? `${status} (new)` : status;
}

async function main(): Promise<number> {
  const { values } = parseCommandLine({
    name: "npm run baselines",
    usage: "Usage: npm run baselines [-- --release RELEASE_ID]\nComputes and queues the baselines of the active release (or the given one).",
    options: { release: { type: "string" } },
  });
  const releaseId = values.release ?? (await getActiveRelease()).id;
  const started = performance.now();
  const results = await runBaselines(releaseId);
  for (const result of results) console.log(`${result.split.padEnd(4)} ${result.key.padEnd(22)} ${describe(result).padEnd(14)} ${result.submissionId}`);
  const waiting = results.filter((result) => result.status === "QUEUED" || result.status === "SCORING").length;
  const created = results.filter((result) => result.outcome === "created").length;
  console.log(
    `Baselines computed in ${formatDecimal(((performance.now() - started) / 1000), 1)} s: ${created} new, ${waiting} waiting for a worker to score them (npm run worker), ${results.length - waiting} already scored or failed.`,
  );
  return 0;
}

runMain(main);
