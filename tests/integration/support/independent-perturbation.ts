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

function perturbed(key: NoiseKey, entryId: string, group: string, n: number, counts: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [metric, k] of Object.entries(counts)) out[metric] = Math.min(n, Math.max(0, k + independentNoise(key, `${entryId}/${metric}/${group}`)));
  for (const series of SERIES) {
    let top = -Infinity;
    for (const metric of series) if (metric in out) out[metric] = top = Math.max(top, out[metric]!);
  }
  for (const metric of ["alias_hit@1", "mrr"]) if (metric in out && "hit@1" in out) out[metric] = Math.max(out[metric]!, out["hit@1"]!);
  return out;
}

const tenths = (k: number, n: number) => Math.floor((2000 * k + n) / (2 * n)) / 1000;
const points = (k: number, n: number) => Math.floor((200 * k + n) / (2 * n)) / 100;
const mrr = (sum: number, n: number) => Math.floor((1000 * sum) / n + 0.5) / 1000;

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

/** Perturbed counts of one group (section 12's steps, running maximum included), for pair and rank checks. */
export function independentShownCounts(key: NoiseKey, entryId: string, group: string, n: number, counts: Record<string, number>): Record<string, number> {
  return perturbed(key, entryId, group, n, counts);
}

/** The shown rate of a count at 0.1 point, as section 12 rounds an overall rate. */
export const independentTenths = tenths;

/** McNemar's exact two-sided p (section 9): min(1, 2 P(X <= min(b, c))), X ~ Binomial(b + c, 1/2). */
export function independentExactP(b: number, c: number): number {
  const m = b + c;
  if (m === 0) return 1;
  let logChoose = 0;
  let tail = 0;
  for (let k = 0; k <= Math.min(b, c); k += 1) {
    if (k > 0) logChoose += Math.log(m - k + 1) - Math.log(k);
    tail += Math.exp(logChoose - m * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

/** Holm's step-down adjustment, answered in the input's order. */
function holm(ps: readonly number[]): number[] {
  const order = ps.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const adjusted = new Array<number>(ps.length);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (ps.length - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}

/** One entry of a view: its shown count k' of the view's metric and group, and its per-sample outcomes there. */
export type IndependentViewEntry = { id: string; shown: number; right: readonly boolean[] };
export type IndependentVerdict = { verdict: "better" | "worse" | "no significant difference"; pBucket: string };

const bucket = (p: number) => (p < 0.001 ? "< 0.001" : p < 0.01 ? "< 0.01" : p < 0.05 ? "< 0.05" : ">= 0.05");

/**
 * Section 13 on section 12's perturbed counts, for one view: a pair's b', c' from the shown counts and a perturbed
 * discordant total; A is significantly better than B when A's shown count is higher and the exact p, Holm-adjusted
 * across B's comparisons with every other entry, is below 0.05. Answers each entry's rank interval and each pair's verdict.
 */
export function independentView(key: NoiseKey, metric: string, group: string, entries: readonly IndependentViewEntry[]) {
  const pairP = (a: IndependentViewEntry, b: IndependentViewEntry): number => {
    let m = 0;
    a.right.forEach((isRight, index) => (m += isRight === b.right[index] ? 0 : 1));
    const d = a.shown - b.shown;
    const [low, high] = [a.id, b.id].sort((x, y) => Buffer.compare(Buffer.from(x), Buffer.from(y)));
    let total = Math.max(Math.abs(d), m + independentNoise(key, `${low}+${high}/m/${metric}/${group}`));
    if ((total + d) % 2 !== 0) total += 1;
    return independentExactP((total + d) / 2, (total - d) / 2);
  };
  // Each entry's family: its comparisons with every other entry, Holm-adjusted.
  const familyP = new Map<string, Map<string, number>>();
  for (const entry of entries) {
    const others = entries.filter((other) => other.id !== entry.id);
    const adjusted = holm(others.map((other) => pairP(entry, other)));
    familyP.set(entry.id, new Map(others.map((other, index) => [other.id, adjusted[index]!])));
  }
  const isBetter = (a: IndependentViewEntry, b: IndependentViewEntry) => a.shown > b.shown && familyP.get(b.id)!.get(a.id)! < 0.05;
  const ranks = new Map(
    entries.map((entry) => {
      const better = entries.filter((other) => isBetter(other, entry)).length;
      const beats = entries.filter((other) => isBetter(entry, other)).length;
      return [entry.id, [1 + better, entries.length - beats] as [number, number]];
    }),
  );
  const verdict = (aId: string, bId: string): IndependentVerdict => {
    const [a, b] = [entries.find((entry) => entry.id === aId)!, entries.find((entry) => entry.id === bId)!];
    if (isBetter(a, b)) return { verdict: "better", pBucket: bucket(familyP.get(b.id)!.get(a.id)!) };
    if (isBetter(b, a)) return { verdict: "worse", pBucket: bucket(familyP.get(a.id)!.get(b.id)!) };
    return { verdict: "no significant difference", pBucket: ">= 0.05" };
  };
  return { ranks, verdict };
}

/** Open-world tiers counted by each cumulative metric (section 6): exact is tier 1, alias 1-2, contain 1-3, jaccard 1-4. */
const OPEN_TIERS = { exact: 1, alias: 2, contain: 3, jaccard: 4 } as const;

/** An open-world entry's exact counts of the four tiers, from its stored outcomes at the given positions. */
export function openCountsOf(tiers: readonly number[]): Record<string, number> {
  return Object.fromEntries(Object.entries(OPEN_TIERS).map(([metric, worst]) => [metric, tiers.filter((tier) => tier >= 1 && tier <= worst).length]));
}
