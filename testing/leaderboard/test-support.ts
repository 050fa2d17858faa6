import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { buildLeaderboard } from "@/lib/core/leaderboard/build-leaderboard";
import type { EntrySource, Interval, LeaderboardView, ReportedSource, TypeGroupScore } from "@/lib/core/leaderboard/leaderboard-types";
import type { PublicCounts } from "@/lib/core/disclosure/disclose";

/**
 * Hand-made sources for the leaderboard's unit tests: every number is written
 * out, so the expected results can be worked out by hand.
 */

export const RELEASE = { id: "release-1", name: "irc-bench", version: "1.0" };
export const GOLD = "gold-test-sha";
export const VERSION = "1.0.0";

/** Samples of the hand-made test split: the first 120 are places, the other 80 events. */
export const SAMPLE_COUNT = 200;
export const GOLD_TYPES: EntityType[] = Array.from({ length: SAMPLE_COUNT }, (_, index) => (index < 120 ? "Place" : "Event"));

/** Outcome codes right on the first `right` samples: open tier 1 (exact), closed rank 1 with an alias hit. */
export function nestedCodes(track: "open" | "closed", right: number): Uint8Array {
  return Uint8Array.from({ length: SAMPLE_COUNT }, (_, index) => (index < right ? (track === "open" ? 1 : 129) : 0));
}

type Metrics = Partial<Record<string, number>>;

function typeGroups(metrics: Metrics, ci: Partial<Record<string, Interval>>, empty: EntityType[] = []): Partial<Record<EntityType, TypeGroupScore>> {
  const out: Partial<Record<EntityType, TypeGroupScore>> = {};
  ENTITY_TYPES.forEach((type, index) => {
    if (empty.includes(type)) {
      out[type] = { n: 0, metrics: Object.fromEntries(Object.keys(metrics).map((key) => [key, null])), ci95: Object.fromEntries(Object.keys(metrics).map((key) => [key, null])) };
      return;
    }
    // Each type shifts every metric by -0.01 per type index, so Place is the best type.
    const shift = index * 0.01;
    out[type] = {
      n: 10 * (index + 1),
      metrics: Object.fromEntries(Object.entries(metrics).map(([key, value]) => [key, (value ?? 0) - shift])),
      ci95: Object.fromEntries(Object.entries(ci).map(([key, interval]) => [key, interval ? [interval[0] - shift, interval[1] - shift] : null])),
    };
  });
  return out;
}

export function entry(options: {
  id: string;
  track: "open" | "closed";
  metrics: Metrics;
  ci95: Partial<Record<string, Interval>>;
  isBaseline?: boolean;
  scorerVersion?: string;
  goldSha256?: string;
  emptyTypes?: EntityType[];
  parameterCount?: number | null;
  /** Fact-sheet answers the cohort filters read. */
  facts?: Partial<Pick<EntrySource, "isOpenWeights" | "approach" | "usesSourceData" | "knowledgeCutoff" | "tier">>;
  /** Samples right (of SAMPLE_COUNT), the first ones; default: the primary metric's share. */
  right?: number;
}): EntrySource {
  const primary = options.metrics[options.track === "open" ? "alias" : "hit@1"] ?? 0;
  const right = options.right ?? Math.round(primary * SAMPLE_COUNT);
  const byType = typeGroups(options.metrics, options.ci95, options.emptyTypes);
  return {
    id: options.id,
    outcomes: { track: options.track, codes: nestedCodes(options.track, right) },
    track: options.track,
    isBaseline: options.isBaseline ?? false,
    system: options.id,
    team: `team of ${options.id}`,
    parameterCount: options.parameterCount ?? null,
    isOpenWeights: null,
    approach: null,
    usesSourceData: null,
    knowledgeCutoff: null,
    tier: "scored",
    ...options.facts,
    date: "2026-01-01",
    score: {
      n: 280,
      scorerVersion: options.scorerVersion ?? VERSION,
      goldSha256: options.goldSha256 ?? GOLD,
      computedAt: "2026-01-01T00:00:00.000Z",
      metrics: options.metrics,
      ci95: options.ci95,
      byType,
    },
    publicCounts: exactPublicCounts(options.track, options.metrics, right, options.right !== undefined),
  };
}

/**
 * The counts behind a fixture's numbers with no noise: each metric's share of
 * SAMPLE_COUNT samples; where the fixture gives `right`, the metrics the
 * paired tests read are the nested outcomes' count, and per type always the
 * outcomes' count on that type's samples (GOLD_TYPES), so a pair's shown b
 * and c are its exact ones. Tests of the perturbation itself are in
 * lib/core/disclosure/perturb.test.ts.
 */
function exactPublicCounts(track: "open" | "closed", metrics: Metrics, right: number, hasRight: boolean): PublicCounts {
  const rankKeys = track === "open" ? ["alias"] : ["hit@1", "alias_hit@1"];
  const overall: Record<string, number> = {};
  for (const [key, value] of Object.entries(metrics)) if (value !== undefined) overall[key] = key === "mrr" ? value * SAMPLE_COUNT : Math.round(value * SAMPLE_COUNT);
  if (hasRight) for (const key of rankKeys) overall[key] = right;
  const types: PublicCounts["byType"] = {};
  for (const type of ENTITY_TYPES) {
    const n = GOLD_TYPES.filter((sampleType) => sampleType === type).length;
    if (n === 0) continue;
    const rightOfType = GOLD_TYPES.slice(0, right).filter((sampleType) => sampleType === type).length;
    types[type] = { n, counts: Object.fromEntries(rankKeys.map((key) => [key, rightOfType])) };
  }
  return { n: SAMPLE_COUNT, overall, byType: types };
}

/** Zero noise: the fixtures' pairs show their exact counts (section 12's noise is tested on its own). */
export const ZERO_NOISE = (): number => 0;

export function reported(options: { id: string; track: "open" | "closed"; metrics: Metrics; byType?: ReportedSource["byType"]; date?: string | null }): ReportedSource {
  return { id: options.id, name: `paper ${options.id}`, track: options.track, n: null, metrics: options.metrics, byType: options.byType ?? null, source: "a paper, Table 4", date: options.date ?? null };
}

/**
 * An open-track view of two entries right on the first 100 and 99 samples and
 * a baseline right on the first 20 (nested). close-a vs close-b: b = 1, c = 0,
 * McNemar's exact p = 1, no verdict, so both rank 1–2; each against the
 * baseline: p far below 0.001, so the baseline ranks 3.
 */
export function closeRanksView(reportedRows: ReportedSource[] = []): LeaderboardView {
  const rates = (alias: number) => ({ exact: alias, alias, contain: alias, jaccard: alias });
  return buildLeaderboard({
    noise: ZERO_NOISE,
    release: RELEASE,
    goldSha256: GOLD,
    scorerVersion: VERSION,
    track: "open",
    type: null,
    entries: [
      entry({ id: "close-a", track: "open", metrics: rates(0.5), ci95: {}, right: 100 }),
      entry({ id: "close-b", track: "open", metrics: rates(0.495), ci95: {}, right: 99 }),
      entry({ id: "base", track: "open", isBaseline: true, metrics: rates(0.1), ci95: {}, right: 20 }),
    ],
    goldTypes: GOLD_TYPES,
    minGroupN: 30,
    reported: reportedRows,
  });
}
