import { createHmac } from "node:crypto";
import type { ScoreReport } from "@/lib/core/scoring/report-schema";

/**
 * Protocol v1.3 section 12's public numbers, written again from the protocol's
 * text for the tests, without lib/core/disclosure: the noise from two HMACs'
 * popcounts, perturbed counts with the running maximum, half-up rounding on
 * integers, and intervals of Binomial(n, v) plus the noise's distribution.
 */

export type NoiseKey = { secret: string; releaseName: string; goldVersion: string };

const bits = (byte: number): number => byte.toString(2).split("").filter((bit) => bit === "1").length;

export function independentNoise(key: NoiseKey, name: string): number {
  const h = createHmac("sha256", key.secret).update(`perturb/${key.releaseName}/${name}`).digest();
  const g = createHmac("sha256", key.secret).update(`perturb2/${key.releaseName}/${key.goldVersion}/${name}`).digest();
  return bits(h[0]!) + bits(h[1]!) + bits(h[2]!) + bits(h[3]!) - bits(h[4]!) - bits(h[5]!) - bits(h[6]!) - bits(h[7]!) + bits(g[0]!) - bits(g[1]!);
}

const SERIES = [
  ["exact", "alias", "contain", "jaccard"],
  ["hit@1", "hit@3", "hit@5", "hit@10"],
];

/** The noise of a count by its key's name: from a NoiseKey, or given (a test that tries other draws of the re-drawn part). */
export type NoiseSource = NoiseKey | ((name: string) => number);
const noiseOf = (source: NoiseSource, name: string): number => (typeof source === "function" ? source(name) : independentNoise(source, name));

function perturbed(key: NoiseSource, entryId: string, group: string, n: number, counts: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [metric, k] of Object.entries(counts)) out[metric] = Math.min(n, Math.max(0, k + noiseOf(key, `${entryId}/${metric}/${group}`)));
  for (const series of SERIES) {
    let top = -Infinity;
    for (const metric of series) if (metric in out) out[metric] = top = Math.max(top, out[metric]!);
  }
  for (const metric of ["alias_hit@1", "mrr"]) if (metric in out && "hit@1" in out) out[metric] = Math.max(out[metric]!, out["hit@1"]!);
  return out;
}

/**
 * The perturbed counts of one group of an entry (`group` as the key spells it:
 * `all`, `type/Person`, `collection/Labor`): `k + z` clamped to [0, n], then
 * each cumulative series replaced by its running maximum. `counts` are exact
 * (for `mrr` the sum of reciprocal ranks).
 */
export function independentPerturbedCounts(key: NoiseSource, entryId: string, group: string, n: number, counts: Record<string, number>): Record<string, number> {
  return perturbed(key, entryId, group, n, counts);
}

const tenths = (k: number, n: number) => Math.floor((2000 * k + n) / (2 * n)) / 1000;
const points = (k: number, n: number) => Math.floor((200 * k + n) / (2 * n)) / 100;
const mrr = (sum: number, n: number) => Math.floor((1000 * sum) / n + 0.5) / 1000;
/** A shown rate from a perturbed count: to tenths of a point, half up on integers (whole points with `coarse`). */
export const independentRate = (k: number, n: number, coarse = false): number => (coarse ? points(k, n) : tenths(k, n));
/** A shown MRR from its perturbed sum of reciprocal ranks: half up to 3 decimals. */
export const independentMrr = mrr;

let noisePmf: number[] | null = null;
function noiseDistribution(): number[] {
  if (noisePmf !== null) return noisePmf;
  const choose = (n: number, k: number): number => {
    let value = 1;
    for (let i = 1; i <= k; i += 1) value = (value * (n - k + i)) / i;
    return value;
  };
  const pmf = new Array<number>(81).fill(0);
  for (let a = 0; a <= 32; a += 1)
    for (let b = 0; b <= 32; b += 1)
      for (let c = 0; c <= 8; c += 1)
        for (let d = 0; d <= 8; d += 1) pmf[a - b + c - d + 40]! += (choose(32, a) * choose(32, b) * choose(8, c) * choose(8, d)) / 2 ** 80;
  noisePmf = pmf;
  return pmf;
}

/** The 2.5% and 97.5% quantiles of X + Z clamped to [0, n], X ~ Binomial(n, v), over n, widened to v, to 3 decimals. */
export function independentInterval(v: number, n: number, withNoise: boolean): [number, number] {
  const logChoose = (k: number) => {
    let value = 0;
    for (let i = 1; i <= k; i += 1) value += Math.log(n - k + i) - Math.log(i);
    return value;
  };
  const x = Array.from({ length: n + 1 }, (_, k) => (v <= 0 ? (k === 0 ? 1 : 0) : v >= 1 ? (k === n ? 1 : 0) : Math.exp(logChoose(k) + k * Math.log(v) + (n - k) * Math.log1p(-v))));
  const y = new Array<number>(n + 1).fill(0);
  const z = withNoise ? noiseDistribution() : [1];
  const offset = withNoise ? 40 : 0;
  x.forEach((px, k) => z.forEach((pz, i) => (y[Math.min(n, Math.max(0, k + i - offset))]! += px * pz)));
  let cumulative = 0;
  let low = -1;
  let high = n;
  for (let k = 0; k <= n; k += 1) {
    cumulative += y[k]!;
    if (low < 0 && cumulative >= 0.025 - 1e-12) low = k;
    if (cumulative >= 0.975 - 1e-12) {
      high = k;
      break;
    }
  }
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return [round(Math.min(low / n, v)), round(Math.max(high / n, v))];
}

type Group = { n: number; metrics: Record<string, number | null> };
export type ExpectedPublicGroup = { n: number; suppressed: boolean; metrics: Record<string, number> };

/** The public numbers of an entry's ranking-slice report: overall (with intervals) and each group (primary suppression only). */
export function independentPublicReport(report: ScoreReport, key: NoiseKey, entryId: string, minGroupN: number) {
  const overallCounts: Record<string, number> = {};
  for (const [metric, value] of Object.entries(report.metrics)) overallCounts[metric] = metric === "mrr" ? (value as number) * report.n : Math.round((value as number) * report.n);
  const counts = perturbed(key, entryId, "all", report.n, overallCounts);
  const metrics = Object.fromEntries(Object.entries(counts).map(([metric, k]) => [metric, metric === "mrr" ? mrr(k, report.n) : tenths(k, report.n)]));
  const ci95 = Object.fromEntries(Object.entries(metrics).map(([metric, value]) => [metric, independentInterval(value, report.n, true)]));
  const groups = (prefix: string, all: Record<string, Group>): Record<string, ExpectedPublicGroup> => {
    const out: Record<string, ExpectedPublicGroup> = {};
    for (const [name, group] of Object.entries(all)) {
      if (group.n === 0) continue;
      const suppressed = group.n < minGroupN;
      const shown: Record<string, number> = {};
      if (!suppressed) {
        const raw: Record<string, number> = {};
        for (const [metric, value] of Object.entries(group.metrics)) if (metric !== "mrr" && value !== null) raw[metric] = Math.round(value * group.n);
        for (const [metric, k] of Object.entries(perturbed(key, entryId, `${prefix}/${name}`, group.n, raw))) shown[metric] = group.n < 1000 ? points(k, group.n) : tenths(k, group.n);
      }
      out[name] = { n: group.n, suppressed, metrics: shown };
    }
    return out;
  };
  return { metrics, ci95, byType: groups("type", report.by_type as Record<string, Group>), byCollection: groups("collection", report.by_collection as Record<string, Group>) };
}

/**
 * A pair's shown discordant counts (section 12): `d` is the difference of the
 * two entries' perturbed counts of the compared metric and group, `m` the exact
 * number of samples on which their outcomes differ; the pair's noise is keyed
 * by the two ids in ascending byte order joined by "+", "/m/", the compared
 * metric and the group. `b` counts the first entry right and the second wrong.
 */
export function independentPair(key: NoiseSource, first: { id: string; shown: number }, second: { id: string; shown: number }, m: number, metric: string, group: string): { b: number; c: number } {
  const [low, high] = Buffer.compare(Buffer.from(first.id), Buffer.from(second.id)) <= 0 ? [first.id, second.id] : [second.id, first.id];
  const d = first.shown - second.shown;
  let total = Math.max(Math.abs(d), m + noiseOf(key, `${low}+${high}/m/${metric}/${group}`));
  if ((total + d) % 2 !== 0) total += 1;
  return { b: (total + d) / 2, c: (total - d) / 2 };
}

/** McNemar's exact p (section 9): min(1, 2 P(X <= min(b, c))), X ~ Binomial(b + c, 1/2); 1 when b + c = 0. */
export function independentExactP(b: number, c: number): number {
  const size = b + c;
  if (size === 0) return 1;
  let term = 2 ** -size;
  let tail = term;
  for (let i = 1; i <= Math.min(b, c); i += 1) {
    term = (term * (size - i + 1)) / i;
    tail += term;
  }
  return Math.min(1, 2 * tail);
}

/** Holm's step-down adjustment of one family, each adjusted p at least the one before it in ascending order, at most 1. */
export function independentHolm(pValues: readonly number[]): number[] {
  const order = pValues.map((p, index) => ({ p, index })).sort((x, y) => x.p - y.p);
  const out = new Array<number>(pValues.length).fill(1);
  let floor = 0;
  order.forEach(({ p, index }, position) => {
    floor = Math.max(floor, Math.min(1, (pValues.length - position) * p));
    out[index] = floor;
  });
  return out;
}

export const independentPBucket = (p: number): string => (p < 0.001 ? "< 0.001" : p < 0.01 ? "< 0.01" : p < 0.05 ? "< 0.05" : ">= 0.05");

export type IndependentVerdict = { verdict: "better" | "worse" | "no significant difference"; pHolm: number };

/**
 * Section 13 on the shown counts: `right[i]` is entry i's perturbed count of
 * the view's metric (its point estimate's numerator), `pair(i, j)` the pair's
 * shown b and c (b: i right, j wrong). j is significantly better than i when
 * its count is higher, its b against i above its c, and the pair's p,
 * Holm-adjusted in i's family (i's tests with every other entry of the view),
 * is below 0.05. Rank intervals [1 + those better, N - those worse].
 */
export function independentViewRanks(right: readonly number[], pair: (i: number, j: number) => { b: number; c: number }) {
  const count = right.length;
  const shown = right.map((_, i) => right.map((__, j) => (i === j ? { b: 0, c: 0 } : i < j ? pair(i, j) : { b: pair(j, i).c, c: pair(j, i).b })));
  const adjusted = right.map((_, i) => {
    const others = right.map((__, j) => j).filter((j) => j !== i);
    const family = independentHolm(others.map((j) => independentExactP(shown[i]![j]!.b, shown[i]![j]!.c)));
    const out = new Array<number>(count).fill(1);
    others.forEach((j, k) => (out[j] = family[k]!));
    return out;
  });
  const isBetter = (j: number, i: number) => i !== j && right[j]! > right[i]! && shown[j]![i]!.b > shown[j]![i]!.c && adjusted[i]![j]! < 0.05;
  const ranks = right.map((_, i) => [1 + right.filter((__, j) => isBetter(j, i)).length, count - right.filter((__, j) => isBetter(i, j)).length] as [number, number]);
  const verdict = (i: number, j: number): IndependentVerdict => {
    if (right[i] === right[j]) return { verdict: "no significant difference", pHolm: Math.max(adjusted[i]![j]!, adjusted[j]![i]!) };
    const pHolm = right[i]! > right[j]! ? adjusted[j]![i]! : adjusted[i]![j]!;
    return { verdict: isBetter(i, j) ? "better" : isBetter(j, i) ? "worse" : "no significant difference", pHolm };
  };
  return { ranks, verdict, pair: (i: number, j: number) => shown[i]![j]! };
}

/** One entry of a view: its shown count k' of the view's metric and group, and its per-sample outcomes there. */
export type IndependentViewEntry = { id: string; shown: number; right: readonly boolean[] };

/** independentViewRanks keyed by entry id: each entry's rank interval, and each pair's verdict with its p bucket. */
export function independentViewOf(key: NoiseSource, metric: string, group: string, entries: readonly IndependentViewEntry[]) {
  const discordant = (i: number, j: number) => entries[i]!.right.filter((isRight, index) => isRight !== entries[j]!.right[index]).length;
  const view = independentViewRanks(
    entries.map((entry) => entry.shown),
    (i, j) => independentPair(key, entries[i]!, entries[j]!, discordant(i, j), metric, group),
  );
  const indexOf = (id: string) => entries.findIndex((entry) => entry.id === id);
  return {
    ranks: new Map(entries.map((entry, i) => [entry.id, view.ranks[i]!])),
    verdict: (aId: string, bId: string) => {
      const { verdict, pHolm } = view.verdict(indexOf(aId), indexOf(bId));
      return { verdict, pBucket: verdict === "no significant difference" ? ">= 0.05" : independentPBucket(pHolm) };
    },
  };
}

/** Open-world tiers counted by each cumulative metric (section 6): exact is tier 1, alias 1-2, contain 1-3, jaccard 1-4. */
const OPEN_TIERS = { exact: 1, alias: 2, contain: 3, jaccard: 4 } as const;

/** An open-world entry's exact counts of the four tiers, from its stored outcomes at the given positions. */
export function openCountsOf(tiers: readonly number[]): Record<string, number> {
  return Object.fromEntries(Object.entries(OPEN_TIERS).map(([metric, worst]) => [metric, tiers.filter((tier) => tier >= 1 && tier <= worst).length]));
}
