/**
 * npm run dataset:import -- DIR [--activate]
 *
 * Imports a release directory (protocol section 2) into the database in one
 * transaction, then queues its baselines (or, when they cannot be queued,
 * removes the release again). Re-importing identical files queues the
 * baselines an earlier import did not get to (it died after its commit).
 * Exit 0 imported or unchanged, 1 the release was
 * rejected (one line per problem: FILE:LINE: message) or could not be kept
 * (one line saying why), 2 usage error.
 */
import path from "node:path";
import { parseCommandLine } from "../command-line";
import { ENTITY_TYPES, SPLITS } from "@/lib/core/dataset/release-schema";
import { closeConnections } from "@/lib/web/server/close-connections";
import { isAppError } from "@/lib/core/errors";
import { importRelease, type ImportReleaseResult } from "@/lib/domain/releases/import-release";
import { formatDecimal } from "@/lib/core/format/numbers";

const USAGE = `Usage: npm run dataset:import -- DIR [--activate] [--no-baselines]

Imports an IRC-Bench release directory (kb.jsonl, train.jsonl, dev.jsonl,
test.jsonl, dataset.json with gold qids in every split) into the database.

  --activate   make this release the active one (the first release imported
               is activated automatically)
  --no-baselines
               do not compute and queue the platform's baselines after a new
               import (they can be run later with npm run baselines)
  --help       show this help

Re-importing identical files changes nothing but queue the baselines an
earlier import of them did not get to. A release whose name and
version exist with different content is refused: bump the version.`;

const LEAKAGE_SHOWN = 50;

function printSummary(result: ImportReleaseResult): void {
  const { stats } = result;
  const queuedNow = result.baselines.some((run) => run.outcome === "created");
  const verb = result.outcome === "imported" ? "Imported" : queuedNow ? "Already imported (its missing baselines are queued now):" : "Already imported, nothing changed:";
  console.log(`${verb} ${result.name} ${result.version}${result.isActive ? " (active)" : ""}`);
  console.log(`  KB entities: ${stats.kbEntities}`);
  for (const split of SPLITS) {
    console.log(`  ${split.padEnd(5)} ${String(stats.splits[split].samples).padStart(7)} samples ${String(stats.splits[split].entities).padStart(7)} entities`);
  }
  console.log("  per type (samples train/dev/test):");
  for (const type of ENTITY_TYPES) {
    const counts = stats.byType[type].samples;
    console.log(`    ${type.padEnd(14)} ${counts.train}/${counts.dev}/${counts.test}`);
  }
  console.log("  per collection (samples train/dev/test):");
  for (const [collection, counts] of Object.entries(stats.byCollection).sort()) {
    console.log(`    ${collection.padEnd(18)} ${counts.train}/${counts.dev}/${counts.test}`);
  }
}

function printLeakage(result: ImportReleaseResult, dir: string): void {
  if (result.leakage.length === 0) {
    console.log("Leakage check: no implicit text contains its entity's name or an alias.");
    return;
  }
  console.log(`Leakage check: ${result.leakage.length} sample(s) name their entity in implicit_text (reported, not rejected):`);
  for (const finding of result.leakage.slice(0, LEAKAGE_SHOWN)) {
    console.log(`  ${path.join(dir, finding.file)}:${finding.line}: ${finding.id} mentions "${finding.matched}" (${finding.qid})`);
  }
  if (result.leakage.length > LEAKAGE_SHOWN) console.log(`  ... and ${result.leakage.length - LEAKAGE_SHOWN} more`);
}

async function main(): Promise<number> {
  const parsed = parseCommandLine({
    name: "npm run dataset:import",
    usage: USAGE,
    options: { activate: { type: "boolean" }, "no-baselines": { type: "boolean" } },
    positionals: { min: 1, max: 1 },
  });
  const dir = parsed.positionals[0]!;
  try {
    const started = performance.now();
    const queueBaselines = parsed.values["no-baselines"] !== true;
    const result = await importRelease({ dir, activate: parsed.values.activate === true, queueBaselines });
    printSummary(result);
    printLeakage(result, dir);
    if (queueBaselines) {
      const queued = result.baselines.filter((run) => run.outcome === "created").length;
      const found = result.baselines.length - queued;
      if (queued > 0 || result.outcome === "imported") {
        console.log(`Queued ${queued} baseline submission(s) for scoring (dev and test); a worker scores them (npm run worker).`);
      }
      if (found > 0) console.log(`${found} baseline submission(s) were there already (npm run baselines shows their status).`);
    }
    console.log(`Done in ${formatDecimal(((performance.now() - started) / 1000), 1)} s.`);
    return 0;
  } catch (error) {
    if (isAppError(error) && error.problems.length > 0) {
      for (const problem of error.problems) {
        const where = !problem.file || problem.file === dir ? dir : path.join(dir, problem.file);
        console.error(problem.line ? `${where}:${problem.line}: ${problem.message}` : `${where}: ${problem.message}`);
      }
      console.error(`${error.message} Nothing was written.`);
      return 1;
    }
    // One sentence, no stack: the import either committed with its baselines or wrote nothing.
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await closeConnections();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
