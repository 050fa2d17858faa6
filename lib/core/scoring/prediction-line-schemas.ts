import { z } from "zod";
import { MAX_PREDICTION_LENGTH, MAX_RANKING_LENGTH } from "./limits";

/**
 * The two shapes of a prediction line (protocol section 4). Fields other than
 * these are ignored. What a static schema cannot know (is the id a sample of
 * the split or a repeat of an earlier line, is each QID in the KB) the
 * validator checks against the split and the KB; it finds repeated QIDs in the
 * same pass over the ranking as the KB check, which is much faster than a
 * refinement here (see validate-predictions.ts).
 */

/** Length in Unicode code points, what "512 characters" means here. */
export function codePointLength(text: string): number {
  // Code points never outnumber UTF-16 code units; count only when it matters.
  if (text.length <= MAX_PREDICTION_LENGTH) {
    return text.length;
  }
  let count = 0;
  for (const _ of text) {
    count += 1;
  }
  return count;
}

/** The first QID that occurs twice, with both 0-based positions, or undefined. */
export function findRepeat(ranking: readonly string[]): { qid: string; first: number; second: number } | undefined {
  const firstAt = new Map<string, number>();
  for (let i = 0; i < ranking.length; i += 1) {
    const qid = ranking[i] ?? "";
    const first = firstAt.get(qid);
    if (first !== undefined) {
      return { qid, first, second: i };
    }
    firstAt.set(qid, i);
  }
  return undefined;
}

export const openPredictionLineSchema = z.object({
  id: z.string(),
  prediction: z
    .string()
    .refine((text) => codePointLength(text) <= MAX_PREDICTION_LENGTH, { error: "prediction too long" }),
});

export const closedPredictionLineSchema = z.object({
  id: z.string(),
  ranking: z
    .array(z.string())
    .min(1)
    .max(MAX_RANKING_LENGTH),
});
