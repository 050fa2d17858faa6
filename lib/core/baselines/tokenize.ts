/**
 * The tokeniser of the BM25 baselines (docs/baselines.md). Pure and
 * deterministic: the same text always gives the same terms, on every machine.
 *
 * 1. Unicode NFKC, then `toLowerCase()` (the order of protocol section 5's `norm`).
 * 2. Tokens are runs of Unicode letters, digits and combining marks
 *    (`[\p{L}\p{N}\p{M}]+`, as protocol section 5's `tokens`); everything else
 *    separates, so "Pearl Harbor's" gives "pearl", "harbor", "s".
 * 3. Tokens in the built-in English stop-word list are dropped.
 * 4. Plurals are folded with Harman's "S" stemmer (1991), the lightest
 *    suffix stripping in the IR literature: only words longer than three
 *    characters, and only the endings "-ies", "-es" and "-s".
 */

const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

/**
 * Function words of English narrative, plus the fragments left by
 * contractions ("don't" -> "don", "t"). Deliberately short: words that can be
 * part of an entity name ("one", "new", "war", "first") are kept.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set([
  "a", "about", "after", "again", "all", "also", "am", "an", "and", "any",
  "are", "as", "at", "be", "because", "been", "before", "being", "but", "by",
  "can", "could", "d", "did", "do", "does", "doing", "don", "down", "during",
  "each", "even", "few", "for", "from", "got", "had", "has", "have",
  "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how",
  "i", "if", "in", "into", "is", "it", "its", "itself", "just", "ll",
  "m", "me", "more", "most", "my", "myself", "no", "nor", "not", "now",
  "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves",
  "out", "over", "re", "s", "same", "she", "should", "so", "some", "such",
  "t", "than", "that", "the", "their", "theirs", "them", "themselves", "then", "there",
  "these", "they", "this", "those", "through", "to", "too", "under", "until", "up",
  "us", "ve", "very", "was", "we", "were", "what", "when", "where", "which",
  "while", "who", "whom", "why", "will", "with", "would", "you", "your", "yours",
  "yourself", "yourselves",
  // "-n't" contractions split at the apostrophe ("won" stays: "we won the game").
  "aren", "couldn", "didn", "doesn", "hadn", "hasn", "haven", "isn", "shouldn", "wasn",
  "weren", "wouldn",
]);

/** Words shorter than this are never stemmed ("gas", "bus", "yes"). */
const MIN_STEM_LENGTH = 4;

/**
 * Harman's "S" stemmer: "-ies" -> "-y" (not after "e" or "a"), "-es" -> "-e"
 * (not after "a", "e" or "o"), "-s" -> "" (not after "u" or "s"), first rule
 * that applies wins. "memories" -> "memory", "camps" -> "camp",
 * "glasses" -> "glasse", "campus" -> "campus".
 */
export function stemPlural(word: string): string {
  if (word.length < MIN_STEM_LENGTH || !word.endsWith("s")) {
    return word;
  }
  if (word.endsWith("ies")) {
    return word.endsWith("eies") || word.endsWith("aies") ? word : `${word.slice(0, -3)}y`;
  }
  if (word.endsWith("es")) {
    if (word.endsWith("aes") || word.endsWith("ees") || word.endsWith("oes")) {
      return word;
    }
    return word.slice(0, -1);
  }
  if (word.endsWith("us") || word.endsWith("ss")) {
    return word;
  }
  return word.slice(0, -1);
}

/** The BM25 terms of a text, in text order, repeats kept (they are term frequencies). */
export function tokenize(text: string): string[] {
  const matches = text.normalize("NFKC").toLowerCase().match(TOKEN);
  if (matches === null) {
    return [];
  }
  const terms: string[] = [];
  for (const token of matches) {
    if (STOP_WORDS.has(token)) {
      continue;
    }
    terms.push(stemPlural(token));
  }
  return terms;
}
