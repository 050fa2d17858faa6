import { isAliasHitAt1Code, rankOfCode, tierOfCode } from "./outcome-codes";
import {
  CLOSED_METRIC_KEYS,
  OPEN_METRIC_KEYS,
  type ClosedMetricKey,
  type MetricKey,
  type OpenMetricKey,
  type Track,
} from "./tracks";

/**
 * What one sample contributes to each metric, as a function of its outcome
 * code. Every metric is the mean of these per-sample values over a group
 * (sections 6 and 7), which lets the bootstrap resample counts of codes.
 */

const CODE_COUNT = 256;

const OPEN_MAX_TIER: Record<OpenMetricKey, number> = { exact: 1, alias: 2, contain: 3, jaccard: 4 };

/** Section 6: the tiers are cumulative, so `alias` counts tiers 1 and 2. */
export function openMetricValue(key: OpenMetricKey, code: number): number {
  const tier = tierOfCode(code);
  return tier !== null && tier <= OPEN_MAX_TIER[key] ? 1 : 0;
}

const HIT_K: Record<Exclude<ClosedMetricKey, "mrr" | "alias_hit@1">, number> = {
  "hit@1": 1,
  "hit@3": 3,
  "hit@5": 5,
  "hit@10": 10,
};

/** Section 7: hit@k is rank <= k, mrr is 1/rank (0 when not ranked). */
export function closedMetricValue(key: ClosedMetricKey, code: number): number {
  const rank = rankOfCode(code);
  if (key === "alias_hit@1") {
    return isAliasHitAt1Code(code) ? 1 : 0;
  }
  if (rank === 0) {
    return 0;
  }
  if (key === "mrr") {
    return 1 / rank;
  }
  return rank <= HIT_K[key] ? 1 : 0;
}

export type MetricTable = {
  key: MetricKey;
  /** `values[code]` is the per-sample value of a sample with that outcome code. */
  values: Float64Array;
};

function buildTable(valueOf: (code: number) => number): Float64Array {
  const values = new Float64Array(CODE_COUNT);
  for (let code = 0; code < CODE_COUNT; code += 1) {
    values[code] = valueOf(code);
  }
  return values;
}

const OPEN_TABLES: readonly MetricTable[] = OPEN_METRIC_KEYS.map((key) => ({
  key,
  values: buildTable((code) => openMetricValue(key, code)),
}));

const CLOSED_TABLES: readonly MetricTable[] = CLOSED_METRIC_KEYS.map((key) => ({
  key,
  values: buildTable((code) => closedMetricValue(key, code)),
}));

/** The value tables of a track's metrics, in report order. */
export function metricTablesOf(track: Track): readonly MetricTable[] {
  return track === "open" ? OPEN_TABLES : CLOSED_TABLES;
}

/** How many samples of `codes` have each code (a histogram over 0..255). */
export function countCodes(codes: Uint8Array): Float64Array {
  const counts = new Float64Array(CODE_COUNT);
  for (const code of codes) {
    counts[code] = (counts[code] ?? 0) + 1;
  }
  return counts;
}

/**
 * The metric values of a group given its code histogram and size:
 * `sum over codes of count[code] * value[code]`, divided by `n`.
 */
export function metricsFromCounts(counts: Float64Array, n: number, tables: readonly MetricTable[]): Float64Array {
  const out = new Float64Array(tables.length);
  tables.forEach((table, m) => {
    let sum = 0;
    for (let code = 0; code < CODE_COUNT; code += 1) {
      const count = counts[code] ?? 0;
      if (count !== 0) {
        sum += count * (table.values[code] ?? 0);
      }
    }
    out[m] = sum / n;
  });
  return out;
}
