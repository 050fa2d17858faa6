/**
 * Normalisation of names and predictions (protocol section 5).
 */

const WHITE_SPACE_RUN = /\s+/gu;
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/** NFKC, then `toLowerCase()`, then trim, then every white-space run to one space. */
export function norm(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim().replace(WHITE_SPACE_RUN, " ");
}

/** The set of runs of Unicode letters, digits and combining marks in `norm(text)`. @internal exported for its tests. */
export function tokens(text: string): Set<string> {
  return tokensOfNormalized(norm(text));
}

/** `tokens` for a string that already went through `norm` (saves a second NFKC pass). */
export function tokensOfNormalized(normalized: string): Set<string> {
  return new Set(normalized.match(TOKEN) ?? []);
}

/** `seq(s)` of section 6: the tokens of an already-normalised string in order, repeats kept. */
export function tokenSequenceOfNormalized(normalized: string): string[] {
  return normalized.match(TOKEN) ?? [];
}
