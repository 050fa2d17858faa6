import {
  independentInterval,
  independentMrr,
  independentPair,
  independentPBucket,
  independentPerturbedCounts,
  independentRate,
  independentViewRanks,
  type IndependentVerdict,
  type NoiseSource,
} from "./independent-perturbation";

/**
 * The public leaderboard of a hand-made fixture (testing/leaderboard/
 * integration-fixtures.ts), worked out from who is right where, written again
 * from protocol sections 12 and 13 without lib/core: the exact counts on the
 * ranking slice's positions, perturbed (independent-perturbation.ts), the
 * rates rounded half up on integers, rows ordered by perturbed count, the
 * view's best baseline, each pair's b' and c', McNemar's exact test,
 * Holm-adjusted in the family of the one behind, and rank intervals.
 */

/**
 * One sample's outcome: open-world, the strictest tier met (1 exact, 2 alias,
 * 0 none: the fixtures' answers are the name, the alias or a name sharing no
 * token with any gold); closed-world, the gold's rank (1, 2; null: absent).
 */
export type FixtureModelEntry =
  | { id: string; system: string; isBaseline: boolean; track: "open"; tier: (index: number) => 0 | 1 | 2 }
  | { id: string; system: string; isBaseline: boolean; track: "closed"; rank: (index: number) => number | null };

export type ViewName = "open" | "closed" | "unified";

const PRIMARY = { open: "alias", closed: "hit@1" } as const;
const UNIFIED = { open: "alias", closed: "alias_hit@1" } as const;

/** Whether the entry is right on sample `index` for a report metric. */
export function isRight(entry: FixtureModelEntry, metric: string, index: number): boolean {
  if (entry.track === "open") {
    const tier = entry.tier(index);
    return metric === "exact" ? tier === 1 : tier === 1 || tier === 2;
  }
  const rank = entry.rank(index);
  if (rank === null) return false;
  if (metric === "hit@1" || metric === "alias_hit@1") return rank === 1;
  const k = Number(/^hit@(\d+)$/.exec(metric)?.[1] ?? Number.NaN);
  return rank <= k;
}

/** The exact counts of an entry on `positions` (gold-order indices): right answers per metric, the sum of reciprocal ranks for MRR, in the split's order. */
export function exactCounts(entry: FixtureModelEntry, positions: readonly number[]): Record<string, number> {
  const metrics = entry.track === "open" ? ["exact", "alias", "contain", "jaccard"] : ["hit@1", "hit@3", "hit@5", "hit@10", "alias_hit@1"];
  const counts: Record<string, number> = Object.fromEntries(metrics.map((metric) => [metric, positions.filter((index) => isRight(entry, metric, index)).length]));
  if (entry.track === "closed") {
    let sum = 0;
    for (const index of positions) {
      const rank = entry.rank(index);
      if (rank !== null) sum += 1 / rank;
    }
    counts.mrr = sum;
  }
  return counts;
}

/** An entry's public overall numbers on the ranking slice: perturbed counts, shown values, intervals. */
export function expectedOverall(noise: NoiseSource, entry: FixtureModelEntry, positions: readonly number[]) {
  const n = positions.length;
  const counts = independentPerturbedCounts(noise, entry.id, "all", n, exactCounts(entry, positions));
  const values = Object.fromEntries(Object.entries(counts).map(([metric, k]) => [metric, metric === "mrr" ? independentMrr(k, n) : independentRate(k, n)]));
  const ci95 = Object.fromEntries(Object.entries(values).map(([metric, value]) => [metric, independentInterval(value, n, true)]));
  return { n, counts, values, ci95 };
}

const differenceOf = (a: number, b: number) => Math.round((a - b) * 1000) / 1000;

export type ExpectedReading = { verdict: IndependentVerdict["verdict"]; p_bucket: string; difference: number };

/**
 * One leaderboard view of all types: its entries best first (perturbed count of
 * the view's metric over n, ties by id), each one's shown value of that metric,
 * rank interval, and the section 13 reading of any pair.
 */
export function expectedView(noise: NoiseSource, entries: readonly FixtureModelEntry[], positions: readonly number[], view: ViewName) {
  const inView = entries.filter((entry) => view === "unified" || entry.track === view);
  const metricOf = (entry: FixtureModelEntry) => (view === "unified" ? UNIFIED[entry.track] : PRIMARY[entry.track]);
  const overall = new Map(inView.map((entry) => [entry.id, expectedOverall(noise, entry, positions)]));
  const right = inView.map((entry) => overall.get(entry.id)!.counts[metricOf(entry)]!);
  const shownValue = (i: number) => overall.get(inView[i]!.id)!.values[metricOf(inView[i]!)]!;
  const ranks = independentViewRanks(right, (i, j) => {
    const a = inView[i]!;
    const b = inView[j]!;
    // The compared metric: the track's primary one for two entries of one track (in any view), `unified` across tracks.
    const sameTrack = a.track === b.track;
    const metricA = sameTrack ? PRIMARY[a.track] : UNIFIED[a.track];
    const metricB = sameTrack ? PRIMARY[b.track] : UNIFIED[b.track];
    const m = positions.filter((index) => isRight(a, metricA, index) !== isRight(b, metricB, index)).length;
    const shown = (entry: FixtureModelEntry, metric: string) => overall.get(entry.id)!.counts[metric]!;
    return independentPair(noise, { id: a.id, shown: shown(a, metricA) }, { id: b.id, shown: shown(b, metricB) }, m, sameTrack ? PRIMARY[a.track] : "unified", "all");
  });
  const order = inView.map((entry, index) => ({ entry, index, estimate: right[index]! / positions.length })).sort((x, y) => y.estimate - x.estimate || (x.entry.id < y.entry.id ? -1 : 1));
  const indexOf = (id: string) => inView.findIndex((entry) => entry.id === id);
  const bestBaseline = order.find(({ entry }) => entry.isBaseline)?.entry ?? null;
  const reading = (id: string, otherId: string): ExpectedReading => {
    const i = indexOf(id);
    const j = indexOf(otherId);
    const { verdict, pHolm } = ranks.verdict(i, j);
    return { verdict, p_bucket: independentPBucket(pHolm), difference: differenceOf(shownValue(i), shownValue(j)) };
  };
  return {
    /** Entry ids best first. */
    order: order.map(({ entry }) => entry.id),
    /** The point estimate rows are ordered by (a reported row stands at its reported value). */
    estimate: (id: string) => right[indexOf(id)]! / positions.length,
    overall: (id: string) => overall.get(id)!,
    value: (id: string) => shownValue(indexOf(id)),
    rankInterval: (id: string) => ranks.ranks[indexOf(id)]!,
    bestBaseline,
    reading,
    /** The pair's shown b' and c' (never public themselves: for the comments' checks). */
    pair: (id: string, otherId: string) => ranks.pair(indexOf(id), indexOf(otherId)),
  };
}
