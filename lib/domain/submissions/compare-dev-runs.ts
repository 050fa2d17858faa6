import "server-only";
import type { Actor } from "@/lib/domain/accounts/actor";
import { AppError } from "@/lib/core/errors";
import { compareRuns } from "@/lib/core/scoring/compare-runs";
import { loadDevRun, type DevRun } from "./load-dev-run";
import type { CompareQuery, RunComparisonView } from "@/lib/core/submissions/sample-schemas";
import { assertComparable, outcomesOf } from "./select-sample-rows";

/**
 * Two dev runs of one owner on the same release and track: what the newer run
 * fixed and broke on the primary metric, McNemar (b = fixed, c = broken,
 * lib/core/scoring's test of section 9) and the differences per entity type.
 */
export async function compareDevRuns(actor: Actor, runs: CompareQuery): Promise<RunComparisonView> {
  if (runs.old === runs.new) throw new AppError("validation", "Pick two different runs to compare.");
  const [older, newer] = await Promise.all([loadDevRun(actor, runs.old), loadDevRun(actor, runs.new)]);
  assertComparable(newer, older);
  const result = compareRuns(outcomesOf(older.run), outcomesOf(newer.run), newer.split.samples.map((sample) => sample.gold.type));
  return {
    old: describe(older),
    new: describe(newer),
    track: newer.track,
    metric: result.metric,
    n: result.n,
    oldRate: result.oldRate,
    newRate: result.newRate,
    mcnemar: result.mcnemar,
    byType: result.byType,
  };
}

function describe(run: DevRun) {
  return { id: run.id, originalName: run.originalName, note: run.note, createdAt: run.createdAt.toISOString() };
}
