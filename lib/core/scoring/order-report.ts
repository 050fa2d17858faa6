import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import type { ScoreReport } from "./report-schema";
import { metricKeysOf } from "./tracks";

type Keyed = Record<string, unknown>;

function pick(record: Keyed, keys: readonly string[]): Keyed {
  const ordered: Keyed = {};
  for (const key of keys) if (key in record) ordered[key] = record[key];
  return ordered;
}

function orderGroup(group: Keyed, keys: readonly string[]): Keyed {
  const ordered: Keyed = { ...group };
  if (group.metrics) ordered.metrics = pick(group.metrics as Keyed, keys);
  if (group.ci95) ordered.ci95 = pick(group.ci95 as Keyed, keys);
  return ordered;
}

/**
 * A stored report with its keys back in the order the scorer writes them
 * (section 11): PostgreSQL's jsonb keeps object keys sorted by length, so
 * a report read from the database lists "mrr" before "hit@1" and "Work"
 * before "Place". The values are untouched.
 */
export function orderReport(report: ScoreReport): ScoreReport {
  const keys = metricKeysOf(report.track);
  const byType = report.by_type as Keyed;
  const byCollection = report.by_collection as Keyed;
  return {
    ...report,
    metrics: pick(report.metrics as Keyed, keys),
    ci95: pick(report.ci95 as Keyed, keys),
    by_type: Object.fromEntries(ENTITY_TYPES.filter((type) => type in byType).map((type) => [type, orderGroup(byType[type] as Keyed, keys)])),
    by_collection: Object.fromEntries(
      Object.keys(byCollection)
        .sort()
        .map((name) => [name, orderGroup(byCollection[name] as Keyed, keys)]),
    ),
  } as ScoreReport;
}
