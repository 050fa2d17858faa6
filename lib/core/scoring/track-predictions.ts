import type { GoldRecord, KbIndex } from "./gold";
import type { SampleOutcomes } from "./outcome-codes";
import { scoreClosedWorld } from "./score-closed";
import { scoreOpenWorld } from "./score-open";

/**
 * The parsed predictions of one file, by sample id: what the validator hands
 * to the scorer.
 */
export type TrackPredictions =
  | { track: "open"; predictions: ReadonlyMap<string, string> }
  | { track: "closed"; predictions: ReadonlyMap<string, readonly string[]> };

/** Per-sample outcomes of a prediction file against the gold of its split, in gold order. */
export function computeOutcomes(
  options: TrackPredictions & { gold: readonly GoldRecord[]; kb: KbIndex },
): SampleOutcomes {
  if (options.track === "open") {
    return { track: "open", codes: scoreOpenWorld(options.predictions, options.gold) };
  }
  return { track: "closed", codes: scoreClosedWorld(options.predictions, options.gold, options.kb) };
}
