import { norm } from "./normalize";

/**
 * Closed-world matching (protocol section 7): the rank of the gold entity in a
 * ranking, and alias-aware top-1 correctness.
 */

/** 1-based position of `goldQid` in `ranking`, or 0 when it is not there. */
export function goldRank(ranking: readonly string[], goldQid: string): number {
  return ranking.indexOf(goldQid) + 1;
}

/** The gold side of alias_hit@1: its QID and every name it answers to, normalised. */
export type PreparedClosedGold = {
  qid: string;
  names: ReadonlySet<string>;
};

export function prepareClosedGold(qid: string, name: string, aliases: readonly string[]): PreparedClosedGold {
  const names = new Set<string>();
  for (const text of [name, ...aliases]) {
    const normalized = norm(text);
    // An empty string is no name; it must not let an unnamed entity match.
    if (normalized.length > 0) {
      names.add(normalized);
    }
  }
  return { qid, names };
}

/**
 * alias_hit@1: the top-ranked entity `t` counts if `t.qid == g.qid`, or
 * `norm(t.name)` equals `norm(g.name)` or `norm(a)` for an alias `a` of `g`.
 * `normalizedNameOf` gives `norm(t.name)` for a KB QID (the scorer caches it).
 */
export function isAliasHitAt1(
  ranking: readonly string[],
  gold: PreparedClosedGold,
  normalizedNameOf: (qid: string) => string | undefined,
): boolean {
  const top = ranking[0];
  if (top === undefined) {
    return false;
  }
  if (top === gold.qid) {
    return true;
  }
  const topName = normalizedNameOf(top);
  return topName !== undefined && gold.names.has(topName);
}
