import "server-only";
import type { Actor } from "@/lib/domain/accounts/actor";
import { AppError } from "@/lib/core/errors";
import { compareRuns, type SampleChange } from "@/lib/core/scoring/compare-runs";
import { ERROR_CLASS_LABELS } from "@/lib/core/scoring/error-taxonomy";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";
import { loadDevRun, type DevRun } from "./load-dev-run";
import { selectSamples, type DevSample, type PreparedRun } from "@/lib/core/submissions/sample-rows";
import { bucketsOf, isClassOfTrack, type SampleQuery } from "@/lib/core/submissions/sample-schemas";

/**
 * The samples of a dev run that pass a query's filters, in the asked order.
 * With `against`, another dev run of the same owner, release and track: the
 * rows carry its answer and the change (this run is the newer one: "fixed" =
 * wrong in the other run, right in this one), and by default only changed
 * samples are kept.
 */
type SampleSelection = {
  samples: readonly DevSample[];
  run: PreparedRun;
  other: { run: PreparedRun; changes: SampleChange[] } | null;
  /** Gold-order indices of the kept samples, sorted. */
  indices: number[];
};

export async function selectSampleRows(actor: Actor, submissionId: string, query: SampleQuery): Promise<SampleSelection> {
  const primary = await loadDevRun(actor, submissionId);
  checkTrackFilters(primary, query);
  const other = query.against === undefined ? null : await loadOther(actor, primary, query.against);
  const indices = selectSamples(primary.split.samples, primary.run, query, other?.changes ?? null);
  return { samples: primary.split.samples, run: primary.run, other, indices };
}

function checkTrackFilters(run: DevRun, query: SampleQuery): void {
  if (query.bucket !== undefined && !bucketsOf(run.track).includes(query.bucket)) {
    const what = run.track === "open" ? "a tier: 1, 2, 3, 4 or none" : "a rank bucket: 1, 2-3, 4-5, 6-10, 11-100 or none";
    throw new AppError("validation", `Invalid query: query parameter "bucket": "${query.bucket}" is not a bucket of the ${run.track}-world track; use ${what}.`);
  }
  if (query.class !== undefined && !isClassOfTrack(run.track, query.class)) {
    throw new AppError("validation", `Invalid query: query parameter "class": "${query.class}" (${ERROR_CLASS_LABELS[query.class]}) is not an error class of the ${run.track}-world track.`);
  }
}

async function loadOther(actor: Actor, primary: DevRun, otherId: string): Promise<{ run: PreparedRun; changes: SampleChange[] }> {
  if (otherId === primary.id) throw new AppError("validation", 'Invalid query: query parameter "against": compare a run with another run, not with itself.');
  const other = await loadDevRun(actor, otherId);
  assertComparable(primary, other);
  const { changes } = compareRuns(outcomesOf(other.run), outcomesOf(primary.run), primary.split.samples.map((sample) => sample.gold.type));
  return { run: other.run, changes };
}

export function outcomesOf(run: PreparedRun): SampleOutcomes {
  return { track: run.track, codes: run.outcomes };
}

/** Two runs of one owner, release and track (dev is implied by loadDevRun). */
export function assertComparable(newer: DevRun, older: DevRun): void {
  if (older.userId !== newer.userId) throw new AppError("not_found", "Not found.");
  if (older.releaseId !== newer.releaseId) throw new AppError("validation", "The two runs are of different dataset releases; compare runs of one release.");
  if (older.track !== newer.track) {
    throw new AppError("validation", `The runs are of different tracks (${older.track}-world and ${newer.track}-world); compare runs of one track.`);
  }
}
