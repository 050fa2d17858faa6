import type { KbIndex } from "@/lib/scoring/gold";
import { norm, tokenSequenceOfNormalized } from "@/lib/scoring/normalize";
import { meetsJaccard } from "@/lib/scoring/open-world";

/**
 * Protocol §12, what a test answer could ever score, metric by metric. The
 * test gold is one of the test candidates: the KB entities that are no train
 * or dev sample's entity (splits are entity-disjoint, §2). For each metric the
 * owner sees, an answer's *outcome set* is the set of candidates that, were
 * they the sample's gold, would make the answer count on that metric. Two
 * answers with the same outcome set move that metric alike whatever the gold
 * is, so the differencing check compares outcome sets, never strings: "Pearl
 * Harbor." and "Pearl Harbor!", nonsense and other nonsense, two train
 * entities of one name at the top of a ranking, or the same top-3 QIDs in
 * another order are the same answer there. Pure: the KB and the train/dev
 * QIDs in, an index out; built once per release.
 */

/** Candidate indices, ascending. */
type Candidates = readonly number[];

type JaccardName = { tokens: ReadonlySet<string>; candidates: Candidates };

export type ScorableAnswers = {
  /** Candidate index of every test candidate's QID. */
  candidateIndexOfQid: ReadonlyMap<string, number>;
  /** norm(name) -> candidates of that name (tier 1). */
  byName: ReadonlyMap<string, Candidates>;
  /** norm(name) or norm(alias), non-empty -> candidates (tier 2, and closed alias_hit@1). */
  byNameOrAlias: ReadonlyMap<string, Candidates>;
  /** Every contiguous run of a candidate name's tokens, space-joined -> candidates whose name holds it (tier 3, the prediction inside the name). */
  byNameRun: ReadonlyMap<string, Candidates>;
  /** Every leading run of a candidate name's tokens -> whether it is a whole name (tier 3, a name inside the prediction). */
  namePrefixes: ReadonlyMap<string, boolean>;
  /** A candidate name's whole token sequence, space-joined -> candidates. */
  byNameSequence: ReadonlyMap<string, Candidates>;
  /** Tier 4: token -> count of distinct tokens of a name -> the names holding the token. */
  postings: ReadonlyMap<string, ReadonlyMap<number, readonly JaccardName[]>>;
  /** How many distinct candidate names hold each token (the rarest are looked up first). */
  tokenFrequency: ReadonlyMap<string, number>;
  maxNameTokens: number;
  /** norm(name) of every KB entity, for the top of a closed ranking. */
  normalizedNameOf: ReadonlyMap<string, string>;
};

function addTo<K>(map: Map<K, number[]>, key: K, candidate: number): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [candidate]);
  // Candidates are added in index order: only the last one can repeat.
  else if (list[list.length - 1] !== candidate) list.push(candidate);
}

/** The test candidates of a release: every KB entity not in `knownSplitQids` (train and dev entities). */
export function buildScorableAnswers(kb: KbIndex, knownSplitQids: ReadonlySet<string>): ScorableAnswers {
  const candidateIndexOfQid = new Map<string, number>();
  const byName = new Map<string, number[]>();
  const byNameOrAlias = new Map<string, number[]>();
  const byNameRun = new Map<string, number[]>();
  const namePrefixes = new Map<string, boolean>();
  const byNameSequence = new Map<string, number[]>();
  const normalizedNameOf = new Map<string, string>();
  for (const [qid, entity] of kb) {
    const name = norm(entity.name);
    normalizedNameOf.set(qid, name);
    if (knownSplitQids.has(qid)) continue;
    const candidate = candidateIndexOfQid.size;
    candidateIndexOfQid.set(qid, candidate);
    addTo(byName, name, candidate);
    // §6 tier 2 and §7 alias_hit@1 read the same names: norm(name) and norm(alias); an empty one matches nothing.
    for (const text of [name, ...entity.aliases.map(norm)]) if (text.length > 0) addTo(byNameOrAlias, text, candidate);
    const sequence = tokenSequenceOfNormalized(name);
    if (sequence.length === 0) continue;
    addTo(byNameSequence, sequence.join(" "), candidate);
    for (let start = 0; start < sequence.length; start += 1) {
      for (let end = start + 1; end <= sequence.length; end += 1) {
        const run = sequence.slice(start, end).join(" ");
        addTo(byNameRun, run, candidate);
        if (start === 0) namePrefixes.set(run, (namePrefixes.get(run) ?? false) || end === sequence.length);
      }
    }
  }
  const { postings, tokenFrequency, maxNameTokens } = buildPostings(byNameSequence);
  return { candidateIndexOfQid, byName, byNameOrAlias, byNameRun, namePrefixes, byNameSequence, postings, tokenFrequency, maxNameTokens, normalizedNameOf };
}

function buildPostings(byNameSequence: ReadonlyMap<string, Candidates>) {
  const postings = new Map<string, Map<number, JaccardName[]>>();
  const tokenFrequency = new Map<string, number>();
  let maxNameTokens = 0;
  for (const [sequence, candidates] of byNameSequence) {
    const tokens = new Set(sequence.split(" "));
    maxNameTokens = Math.max(maxNameTokens, tokens.size);
    const name: JaccardName = { tokens, candidates };
    for (const token of tokens) {
      tokenFrequency.set(token, (tokenFrequency.get(token) ?? 0) + 1);
      let bySize = postings.get(token);
      if (bySize === undefined) {
        bySize = new Map();
        postings.set(token, bySize);
      }
      const names = bySize.get(tokens.size);
      if (names === undefined) bySize.set(tokens.size, [name]);
      else names.push(name);
    }
  }
  return { postings, tokenFrequency, maxNameTokens };
}

/** A set of candidates being collected, written out in one canonical form. */
class CandidateSet {
  private readonly members = new Set<number>();

  addAll(candidates: Candidates | undefined): this {
    if (candidates !== undefined) for (const candidate of candidates) this.members.add(candidate);
    return this;
  }

  /** The ascending indices, comma-joined: equal sets give equal keys; the empty set gives "". */
  key(): string {
    return Int32Array.from(this.members).sort().join(",");
  }
}

/**
 * The outcome sets of a normalised open-world prediction on the four
 * cumulative metrics of §6 (exact, alias, contain, jaccard), as keys: tiers
 * 1 and 2 compare the whole normalised string, tiers 3 and 4 its tokens,
 * exactly as lib/scoring/open-world.ts openWorldTier decides them.
 */
export function openOutcomeKeys(normalized: string, scorable: ScorableAnswers): [string, string, string, string] {
  // §6: an empty prediction meets no tier.
  if (normalized.length === 0) return ["", "", "", ""];
  const sequence = tokenSequenceOfNormalized(normalized);
  // Tier 3 (whole-token containment, v1.1): the prediction a run of the name, or the name a run of the prediction.
  const contained = [scorable.byNameRun.get(sequence.join(" ")), ...candidateNamesInside(sequence, scorable).map((name) => scorable.byNameSequence.get(name))];
  const aliasSet = () => new CandidateSet().addAll(scorable.byNameOrAlias.get(normalized));
  const contain = aliasSet();
  const jaccard = aliasSet();
  for (const candidates of contained) {
    contain.addAll(candidates);
    jaccard.addAll(candidates);
  }
  for (const name of namesMeetingJaccard(new Set(sequence), scorable)) jaccard.addAll(name.candidates);
  return [new CandidateSet().addAll(scorable.byName.get(normalized)).key(), aliasSet().key(), contain.key(), jaccard.key()];
}

/** Every candidate name (its token sequence, space-joined) that is a contiguous run of `sequence`. */
function candidateNamesInside(sequence: readonly string[], scorable: ScorableAnswers): string[] {
  const found: string[] = [];
  for (let start = 0; start < sequence.length; start += 1) {
    let run = "";
    for (let end = start; end < sequence.length; end += 1) {
      run = end === start ? (sequence[end] ?? "") : `${run} ${sequence[end] ?? ""}`;
      const isWholeName = scorable.namePrefixes.get(run);
      if (isWholeName === undefined) break;
      if (isWholeName) found.push(run);
    }
  }
  return found;
}

/**
 * Tier 4 through a prefix filter. With |P| = m prediction tokens and a name of
 * g tokens, 2s >= m + g - s needs s >= (m + g) / 3 shared tokens, so only
 * m/2 <= g <= 2m can meet it, and such a name holds at least one of the
 * k - s + 1 rarest of the k tokens of P found in some candidate name: only
 * those tokens' names of size g are tried.
 */
function namesMeetingJaccard(predicted: ReadonlySet<string>, scorable: ScorableAnswers): JaccardName[] {
  const m = predicted.size;
  const byRarity = [...predicted].filter((token) => scorable.tokenFrequency.has(token));
  if (byRarity.length === 0) return [];
  byRarity.sort((first, second) => (scorable.tokenFrequency.get(first) ?? 0) - (scorable.tokenFrequency.get(second) ?? 0));
  const met = new Set<JaccardName>();
  const largest = Math.min(2 * m, scorable.maxNameTokens);
  for (let g = Math.ceil(m / 2); g <= largest; g += 1) {
    const shared = Math.ceil((m + g) / 3);
    // Tokens of P in no candidate name cannot be shared: the prefix is taken among the others.
    const prefix = byRarity.length - shared + 1;
    for (let index = 0; index < prefix; index += 1) {
      for (const name of scorable.postings.get(byRarity[index] ?? "")?.get(g) ?? []) {
        if (!met.has(name) && meetsJaccard(predicted, name.tokens)) met.add(name);
      }
    }
  }
  return [...met];
}

/**
 * The outcome sets of a closed-world ranking on the six metrics of §7, in
 * the order of CLOSED_METRIC_KEYS (hit@1, hit@3, hit@5, hit@10, mrr,
 * alias_hit@1), as keys. hit@k reads which candidates stand in the first k
 * places, in any order; MRR the place of each candidate; alias_hit@1 the top
 * entity's QID and its name (closed-world.ts isAliasHitAt1).
 */
export function closedOutcomeKeys(ranking: readonly string[], scorable: ScorableAnswers): [string, string, string, string, string, string] {
  const places: string[] = [];
  // The candidates of the first ten places, in place order (a valid ranking names each QID once).
  const top: number[] = [];
  ranking.forEach((qid, index) => {
    const candidate = scorable.candidateIndexOfQid.get(qid);
    if (candidate === undefined) return;
    places.push(`${index + 1}:${candidate}`);
    if (index < 10) top.push(index, candidate);
  });
  const hitKey = (k: number) => {
    const within: number[] = [];
    for (let at = 0; at < top.length && (top[at] ?? k) < k; at += 2) within.push(top[at + 1] ?? 0);
    return within.sort((first, second) => first - second).join(",");
  };
  return [hitKey(1), hitKey(3), hitKey(5), hitKey(10), places.join(" "), aliasHitAt1Key(ranking[0], scorable)];
}

function aliasHitAt1Key(top: string | undefined, scorable: ScorableAnswers): string {
  if (top === undefined) return "";
  const set = new CandidateSet();
  const candidate = scorable.candidateIndexOfQid.get(top);
  if (candidate !== undefined) set.addAll([candidate]);
  // Another entity on top counts when its norm(name) is the gold's name or alias (no entity's name is empty in a valid KB).
  return set.addAll(scorable.byNameOrAlias.get(scorable.normalizedNameOf.get(top) ?? "")).key();
}
