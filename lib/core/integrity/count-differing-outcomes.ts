import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";

/**
 * How many samples have a different outcome in two scorings of the same gold
 * (the reproduction check of the "reproduced" tier): compact outcome codes
 * compared position by position, so a tier (open track) or a rank (closed
 * track) that moved counts once. Both must be of the same track and gold
 * (same length); the caller checks, this throws otherwise.
 */
export function countDifferingOutcomes(entry: SampleOutcomes, reproduction: SampleOutcomes): number {
  if (entry.track !== reproduction.track) throw new Error("outcomes of different tracks cannot be compared");
  if (entry.codes.length !== reproduction.codes.length) throw new Error("outcomes of different gold cannot be compared");
  let differing = 0;
  for (let index = 0; index < entry.codes.length; index += 1) {
    if (entry.codes[index] !== reproduction.codes[index]) differing += 1;
  }
  return differing;
}
