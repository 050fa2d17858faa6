import { buildScoreReport, type ReportOptions } from "@/lib/core/scoring/score-report";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";
import { pickCodes, pickPositions, type SliceName, type TestSlices } from "./slice-membership";

/**
 * The section 11 report of each test slice (protocol section 12): the same
 * scoring code run on the slice's samples only, so a slice's report is what
 * the offline scorer prints for a split made of those samples.
 */

export type SliceReports = Record<SliceName, ScoreReport>;

/** The outcomes of one slice's samples, in gold order. */
export function sliceOutcomes(outcomes: SampleOutcomes, positions: Uint32Array): SampleOutcomes {
  return { track: outcomes.track, codes: pickCodes(outcomes.codes, positions) };
}

function buildSliceReports(options: Omit<ReportOptions, "baselines" | "intervals"> & { outcomes: SampleOutcomes; slices: TestSlices }): SliceReports {
  const reportOf = (positions: Uint32Array): ScoreReport =>
    buildScoreReport({
      split: options.split,
      seed: options.seed,
      resamples: options.resamples,
      gold: pickPositions(options.gold, positions),
      outcomes: sliceOutcomes(options.outcomes, positions),
    });
  return { feedback: reportOf(options.slices.feedback), ranking: reportOf(options.slices.ranking) };
}

/** The slice reports of a scored file: null unless its split has slices (the test split). */
export function sliceReportsOf(
  split: { gold: ReportOptions["gold"]; slices: TestSlices | null },
  outcomes: SampleOutcomes,
  options: Pick<ReportOptions, "split" | "seed" | "resamples">,
): SliceReports | null {
  if (split.slices === null) return null;
  return buildSliceReports({ ...options, gold: split.gold, outcomes, slices: split.slices });
}
