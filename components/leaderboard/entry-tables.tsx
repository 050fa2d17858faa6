import Link from "next/link";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import type { EntryComparison, EntryScore } from "@/lib/core/leaderboard/entry-types";
import { formatCount, formatDifference, formatValue, isWholePointGroup } from "@/lib/core/format/numbers";
import { describeVerdict } from "@/lib/core/leaderboard/describe-verdict";
import { METRIC_LABELS, TYPE_SLUGS } from "@/lib/core/leaderboard/views";
import { UNRELIABLE_INTERVAL_N } from "@/lib/core/scoring/bootstrap";
import type { MetricKey, Track } from "@/lib/core/scoring/tracks";
import { TableShell } from "@/components/ui/table-shell";
import { EstimateText } from "./estimate-text";

/** An entry's tables: every metric with its interval, the type x metric matrix, collections, comparisons. */

export function MetricsTable({ score, keys, caption }: { score: EntryScore; keys: readonly MetricKey[]; caption: string }) {
  return (
    <TableShell
      caption={caption}
      head={
        <>
          <th scope="col">Metric</th>
          <th scope="col" className="text-right">Value</th>
          <th scope="col" className="text-right">95% CI low</th>
          <th scope="col" className="text-right">95% CI high</th>
        </>
      }
    >
      {keys.map((key) => {
        const value = score.metrics[key];
        const interval = score.ci95[key];
        return (
          <tr key={key} className="border-b border-line">
            <th scope="row">{METRIC_LABELS[key]}</th>
            <td className="text-right tabular-nums">{value === undefined ? "–" : formatValue(value, key)}</td>
            <td className="text-right tabular-nums">{interval ? formatValue(interval[0], key) : "–"}</td>
            <td className="text-right tabular-nums">{interval ? formatValue(interval[1], key) : "–"}</td>
          </tr>
        );
      })}
    </TableShell>
  );
}

export function TypeMatrix({ score, keys, track, caption }: { score: EntryScore; keys: readonly MetricKey[]; track: Track; caption: string }) {
  return (
    <TableShell
      caption={caption}
      region={caption}
      head={
        <>
          <th scope="col">Entity type</th>
          <th scope="col" className="text-right">n</th>
          {keys.map((key) => (
            <th key={key} scope="col" className="text-right whitespace-nowrap">
              {METRIC_LABELS[key]}
            </th>
          ))}
        </>
      }
    >
      {ENTITY_TYPES.map((type) => {
        const group = score.byType[type];
        const n = group?.n ?? 0;
        return (
          <tr key={type} className="border-b border-line">
            <th scope="row" className="whitespace-nowrap">
              {/* Underlined: beside the "interval unreliable" note it is a link in running text (axe link-in-text-block, WCAG 1.4.1). */}
              <Link href={`/leaderboard/types/${TYPE_SLUGS[type]}?track=${track}`} className="underline underline-offset-2">
                {type}
              </Link>
              {n > 0 && n < UNRELIABLE_INTERVAL_N && !group?.isSuppressed && (
                <span className="ml-1 text-xs font-normal text-amber-800" data-testid="unreliable-interval">
                  (n &lt; {UNRELIABLE_INTERVAL_N}: interval unreliable)
                </span>
              )}
            </th>
            <td className="text-right tabular-nums">{formatCount(n)}</td>
            {group?.isSuppressed && n > 0 ? (
              <SuppressedCell span={keys.length} />
            ) : (
              keys.map((key) => {
              const value = group?.metrics[key];
              return (
                <td key={key} className="text-right">
                  {n === 0 ? (
                    <span className="text-muted">no samples</span>
                  ) : value === null || value === undefined ? (
                    <span className="text-muted">not shown</span>
                  ) : (
                    <EstimateText estimate={{ value, ci95: group?.ci95[key] ?? null }} metric={key} isWholePoints={isWholePointGroup(n, score.coarseBelowN)} />
                  )}
                </td>
              );
              })
            )}
          </tr>
        );
      })}
    </TableShell>
  );
}

export function CollectionTable({ score, keys, caption }: { score: EntryScore; keys: readonly MetricKey[]; caption: string }) {
  const collections = Object.entries(score.byCollection).sort(([a], [b]) => a.localeCompare(b, "en"));
  return (
    <TableShell
      caption={caption}
      region={caption}
      head={
        <>
          <th scope="col">Collection</th>
          <th scope="col" className="text-right">n</th>
          {keys.map((key) => (
            <th key={key} scope="col" className="text-right whitespace-nowrap">
              {METRIC_LABELS[key]}
            </th>
          ))}
        </>
      }
    >
      {collections.map(([collection, group]) => (
        <tr key={collection} className="border-b border-line">
          <th scope="row" className="whitespace-nowrap">
            {collection}
          </th>
          <td className="text-right tabular-nums">{formatCount(group.n)}</td>
          {group.isSuppressed ? (
            <SuppressedCell span={keys.length} />
          ) : (
            keys.map((key) => {
              const value = group.metrics[key];
              return (
                <td key={key} className="text-right tabular-nums">
                  {value === undefined || value === null ? "–" : formatValue(value, key, isWholePointGroup(group.n, score.coarseBelowN))}
                </td>
              );
            })
          )}
        </tr>
      ))}
    </TableShell>
  );
}

/** A group too small to show on the test split (protocol section 12): its size only. */
function SuppressedCell({ span }: { span: number }) {
  return (
    <td colSpan={span} className="text-muted" data-testid="suppressed-group">
      too few samples to show
    </td>
  );
}

export function ComparisonsTable({ comparisons, caption, track }: { comparisons: EntryComparison[]; caption: string; track: "open" | "closed" }) {
  const metric = track === "open" ? "alias" : "hit@1";
  return (
    <TableShell
      caption={caption}
      region={caption}
      head={
        <>
          <th scope="col">Baseline</th>
          <th scope="col">Verdict</th>
          <th scope="col" className="text-right">
            Difference <span className="font-normal text-muted">(entry − baseline)</span>
          </th>
        </>
      }
    >
      {comparisons.map((comparison) => (
        <tr key={comparison.baselineId} className="border-b border-line" data-testid="entry-comparison">
          <th scope="row">
            <Link href={`/entries/${comparison.baselineId}`}>{comparison.baselineName}</Link>
          </th>
          <td data-testid="pair-verdict">{describeVerdict(comparison, comparison.baselineName)}</td>
          <td className="text-right tabular-nums">{formatDifference(comparison.difference, metric)}</td>
        </tr>
      ))}
    </TableShell>
  );
}
