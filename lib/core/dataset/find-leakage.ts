/**
 * The leakage check of the paper's Stage 4 (protocol section 2): does an
 * implicit text still contain the entity's name or one of its aliases?
 *
 * Rule: case-insensitive, whole-word. Both sides are compared after Unicode
 * NFKC, `toLowerCase()` and collapsing white-space runs to one space. A match
 * must not be preceded or followed by a Unicode letter, digit or combining
 * mark, so "Ford" is not found in "Stanford" or "afforded" but is found in
 * "ford." and "U.S. Army" is found in "the u.s. army's".
 */

export type LeakageFinding = {
  file: string;
  line: number;
  id: string;
  qid: string;
  /** The name or alias (as written in the KB) found in the implicit text. */
  matched: string;
};

export type LeakageMatcher = {
  /** The first name or alias (as given) found in `text`, or undefined. */
  find: (text: string) => string | undefined;
};

// Compiled once: Unicode property classes are costly to compile, so the
// matcher finds candidates with indexOf and checks the two boundaries here.
const ENDS_WITH_WORD_CHAR = /[\p{L}\p{N}\p{M}]$/u;
const STARTS_WITH_WORD_CHAR = /^[\p{L}\p{N}\p{M}]/u;

export function normalizeForLeakage(text: string): string {
  return text.normalize("NFKC").toLowerCase().replace(/\s+/gu, " ");
}

function isWholeWordAt(text: string, start: number, end: number): boolean {
  // Two code units cover one code point before/after, surrogate pairs included.
  const before = text.slice(Math.max(0, start - 2), start);
  const after = text.slice(end, end + 2);
  return !ENDS_WITH_WORD_CHAR.test(before) && !STARTS_WITH_WORD_CHAR.test(after);
}

function containsWholeWord(text: string, term: string): boolean {
  for (let start = text.indexOf(term); start >= 0; start = text.indexOf(term, start + 1)) {
    if (isWholeWordAt(text, start, start + term.length)) {
      return true;
    }
  }
  return false;
}

/**
 * Prepares the terms of an entity (its name and aliases) once, so checking
 * many samples of that entity is cheap.
 */
export function createLeakageMatcher(terms: readonly string[]): LeakageMatcher {
  const originalByNormalized = new Map<string, string>();
  for (const term of terms) {
    const normalized = normalizeForLeakage(term).trim();
    if (normalized.length > 0 && !originalByNormalized.has(normalized)) {
      originalByNormalized.set(normalized, term);
    }
  }
  // Longest first, so the reported match is the most specific term.
  const normalizedTerms = [...originalByNormalized.keys()].sort((a, b) => b.length - a.length);
  return {
    find(text) {
      if (normalizedTerms.length === 0) {
        return undefined;
      }
      const normalizedText = normalizeForLeakage(text);
      const found = normalizedTerms.find((term) => containsWholeWord(normalizedText, term));
      return found === undefined ? undefined : originalByNormalized.get(found);
    },
  };
}

/** Convenience for one-off checks; build matchers once when checking many samples. @internal exported for its tests. */
export function findLeakedTerm(implicitText: string, terms: readonly string[]): string | undefined {
  return createLeakageMatcher(terms).find(implicitText);
}
