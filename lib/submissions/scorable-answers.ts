import { prepareClosedGold } from "@/lib/scoring/closed-world";
import type { KbIndex } from "@/lib/scoring/gold";
import { norm, tokenSequenceOfNormalized, tokensOfNormalized } from "@/lib/scoring/normalize";
import { meetsJaccard } from "@/lib/scoring/open-world";

/**
 * Protocol §12, what a test answer could ever score. The test gold is a
 * subset of the test candidates: the KB entities that are no train or dev
 * sample's entity (splits are entity-disjoint, §2). An answer that no
 * candidate could make score, on any metric, says nothing about the gold, so
 * the differencing check treats it as no answer: changing one such answer
 * into another is not a difference. Pure: the KB and the train/dev QIDs in,
 * an index out; built once per release.
 */
export type ScorableAnswers = {
  candidateQids: ReadonlySet<string>;
  /** norm() of every candidate's name and aliases (non-empty): open tiers 1-2, closed alias_hit@1. */
  candidateNames: ReadonlySet<string>;
  /** norm(name) of every KB entity, for the top of a closed ranking. */
  normalizedNameOf: ReadonlyMap<string, string>;
  /** Every contiguous run of a candidate name's tokens, joined by spaces (tier 3, prediction inside the name). */
  nameRuns: ReadonlySet<string>;
  /** Every leading run of a candidate name's tokens, joined by spaces; true when it is the whole name (tier 3, name inside the prediction). */
  namePrefixes: ReadonlyMap<string, boolean>;
  /** Tier 4: token -> candidate names holding it, by the name's count of distinct tokens. */
  postings: ReadonlyMap<string, ReadonlyMap<number, readonly (ReadonlySet<string>)[]>>;
  /** How many candidate names hold each token (to look up the rarest first). */
  tokenFrequency: ReadonlyMap<string, number>;
  /** The largest count of distinct tokens in a candidate name. */
  maxNameTokens: number;
};

/** The test candidates of a release: every KB entity not in `knownSplitQids` (train and dev entities). */
export function buildScorableAnswers(kb: KbIndex, knownSplitQids: ReadonlySet<string>): ScorableAnswers {
  const candidateQids = new Set<string>();
  const candidateNames = new Set<string>();
  const normalizedNameOf = new Map<string, string>();
  const nameRuns = new Set<string>();
  const namePrefixes = new Map<string, boolean>();
  const postings = new Map<string, Map<number, ReadonlySet<string>[]>>();
  const tokenFrequency = new Map<string, number>();
  let maxNameTokens = 0;
  for (const [qid, entity] of kb) {
    const name = norm(entity.name);
    normalizedNameOf.set(qid, name);
    if (knownSplitQids.has(qid)) continue;
    candidateQids.add(qid);
    // §7 alias_hit@1 and §6 tiers 1-2 read the same names: norm(name) and norm(alias), empty ones dropped.
    for (const candidateName of prepareClosedGold(qid, entity.name, entity.aliases).names) candidateNames.add(candidateName);
    const sequence = tokenSequenceOfNormalized(name);
    addRuns(sequence, nameRuns, namePrefixes);
    const nameTokens = tokensOfNormalized(name);
    maxNameTokens = Math.max(maxNameTokens, nameTokens.size);
    for (const token of nameTokens) {
      tokenFrequency.set(token, (tokenFrequency.get(token) ?? 0) + 1);
      let bySize = postings.get(token);
      if (!bySize) {
        bySize = new Map();
        postings.set(token, bySize);
      }
      let names = bySize.get(nameTokens.size);
      if (!names) {
        names = [];
        bySize.set(nameTokens.size, names);
      }
      names.push(nameTokens);
    }
  }
  return { candidateQids, candidateNames, normalizedNameOf, nameRuns, namePrefixes, postings, tokenFrequency, maxNameTokens };
}

function addRuns(sequence: readonly string[], runs: Set<string>, prefixes: Map<string, boolean>): void {
  for (let start = 0; start < sequence.length; start += 1) {
    let run = "";
    for (let end = start; end < sequence.length; end += 1) {
      run = end === start ? (sequence[end] ?? "") : `${run} ${sequence[end] ?? ""}`;
      runs.add(run);
      if (start === 0) prefixes.set(run, (prefixes.get(run) ?? false) || end === sequence.length - 1);
    }
  }
}

/**
 * Whether a normalised open-world prediction meets tier 1, 2, 3 or 4 of §6
 * for at least one test candidate: the same decision as
 * lib/scoring/open-world.ts openWorldTier, made through the index instead of
 * against every candidate.
 */
export function couldOpenAnswerScore(normalized: string, scorable: ScorableAnswers): boolean {
  // §6: an empty prediction meets no tier.
  if (normalized.length === 0) return false;
  if (scorable.candidateNames.has(normalized)) return true;
  const sequence = tokenSequenceOfNormalized(normalized);
  if (sequence.length === 0) return false;
  // Tier 3, seq(p) a contiguous run of seq(name).
  if (scorable.nameRuns.has(sequence.join(" "))) return true;
  if (containsCandidateName(sequence, scorable)) return true;
  return meetsJaccardWithCandidate(new Set(sequence), scorable);
}

/** Tier 3, seq(name) a contiguous run of seq(p): walk the name prefixes from every token of p. */
function containsCandidateName(sequence: readonly string[], scorable: ScorableAnswers): boolean {
  for (let start = 0; start < sequence.length; start += 1) {
    let run = "";
    for (let end = start; end < sequence.length; end += 1) {
      run = end === start ? (sequence[end] ?? "") : `${run} ${sequence[end] ?? ""}`;
      const isWholeName = scorable.namePrefixes.get(run);
      if (isWholeName === undefined) break;
      if (isWholeName) return true;
    }
  }
  return false;
}

/**
 * Tier 4 through a prefix filter. With |P| = m prediction tokens and a name of
 * g tokens, 2s >= m + g - s needs s >= (m + g) / 3 shared tokens, so only
 * m/2 <= g <= 2m can meet it, and such a name holds at least one of the
 * k - s + 1 rarest of the k tokens of P found in some candidate name: only
 * those tokens' names of size g are tried.
 */
function meetsJaccardWithCandidate(predicted: ReadonlySet<string>, scorable: ScorableAnswers): boolean {
  const m = predicted.size;
  const byRarity = [...predicted].filter((token) => scorable.tokenFrequency.has(token));
  if (byRarity.length === 0) return false;
  byRarity.sort((first, second) => (scorable.tokenFrequency.get(first) ?? 0) - (scorable.tokenFrequency.get(second) ?? 0));
  const largest = Math.min(2 * m, scorable.maxNameTokens);
  for (let g = Math.ceil(m / 2); g <= largest; g += 1) {
    const shared = Math.ceil((m + g) / 3);
    // Tokens of P in no candidate name cannot be shared: the prefix is taken among the others.
    const prefix = byRarity.length - shared + 1;
    for (let index = 0; index < prefix; index += 1) {
      const names = scorable.postings.get(byRarity[index] ?? "")?.get(g) ?? [];
      for (const nameTokens of names) {
        if (meetsJaccard(predicted, nameTokens)) return true;
      }
    }
  }
  return false;
}

/**
 * The positions of a ranking the key keeps: hit@1 to hit@10 and alias_hit@1
 * read nothing below them. Below, a right QID only adds at most 1 / (11 n) to
 * the owner's MRR, under the rounding of §12 even for 25 samples together on
 * the full test split: changes there would be free padding, a file that
 * "differs" in 25 samples while its visible numbers move by one guess only.
 */
export const KEYED_RANKING_POSITIONS = 10;

/**
 * The part of a closed-world ranking that any test gold could score on where
 * the owner sees it (§7, §12): the position and QID of every candidate in the
 * first KEYED_RANKING_POSITIONS (rank, hit@k, and the MRR terms above the
 * rounding), and the top QID when it is no candidate but its name is a
 * candidate's name or alias (alias_hit@1, as closed-world.ts isAliasHitAt1).
 */
export function scorableRanking(ranking: readonly string[], scorable: ScorableAnswers): string[] {
  const kept: string[] = [];
  const keyed = Math.min(ranking.length, KEYED_RANKING_POSITIONS);
  for (let index = 0; index < keyed; index += 1) {
    const qid = ranking[index] ?? "";
    const isCandidate = scorable.candidateQids.has(qid);
    const isAliasHitAt1 = index === 0 && !isCandidate && scorable.candidateNames.has(scorable.normalizedNameOf.get(qid) ?? "");
    if (isCandidate || isAliasHitAt1) kept.push(`${index + 1}:${qid}`);
  }
  return kept;
}
