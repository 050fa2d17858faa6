import type { Metadata } from "next";
import Link from "next/link";
import { TypeDifferenceChart } from "@/components/charts/type-difference-chart";
import { Badge, EstimateText } from "@/components/leaderboard/estimate-text";
import { isAppError } from "@/lib/core/errors";
import { comparePublicEntries, type EntryPairComparison } from "@/lib/domain/leaderboard/compare-public-entries";
import { formatCount, formatDecimal, formatDifference, isWholePointGroup } from "@/lib/core/format/numbers";
import { findGroupPolicy } from "@/lib/domain/releases/find-group-policy";
import { formatPValue } from "@/lib/core/format/p-values";
import { describeVerdict } from "@/lib/core/leaderboard/describe-verdict";
import { listPublicEntries } from "@/lib/domain/leaderboard/list-public-entries";
import type { PublicEntrySummary } from "@/lib/core/leaderboard/leaderboard-types";
import { compareQuerySchema, firstValues } from "@/lib/core/leaderboard/query-schemas";
import { pValueBucket, SIGNIFICANCE_LEVEL, type Verdict } from "@/lib/core/disclosure/disclose";
import { METRIC_LABELS } from "@/lib/core/leaderboard/views";
import { TableShell } from "@/components/ui/table-shell";
import { roundTo } from "@/lib/core/format/round";

export const metadata: Metadata = { title: "Compare entries" };
export const dynamic = "force-dynamic";

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function EntryPicker({ name, label, entries, selected }: { name: "a" | "b"; label: string; entries: PublicEntrySummary[]; selected: string | undefined }) {
  return (
    <label className="flex min-w-0 max-w-full flex-col gap-1">
      <span className="font-medium">{label}</span>
      <select name={name} defaultValue={selected ?? ""} required className="w-full max-w-xs rounded border border-line px-2 py-1">
        <option value="" disabled>
          Choose an entry
        </option>
        {entries.map((entry) => (
          <option key={entry.id} value={entry.id}>
            {entry.system} ({entry.track}-world{entry.isBaseline ? ", baseline" : ""})
          </option>
        ))}
      </select>
    </label>
  );
}

/** The pair's verdict in the words every page uses (lib/core/ranking/significance.ts). */
function verdictSentence(result: EntryPairComparison): string {
  if (result.reading !== null) return `${result.a.system} is ${describeVerdict(result.reading, result.b.system)}.`;
  const test = result.devTest;
  if (test === null) return "These entries are not ranked together in any leaderboard view yet (a score is being brought up to date).";
  return `${result.a.system} is ${describeVerdict({ verdict: devVerdict(test), pBucket: pValueBucket(test.p_exact) }, result.b.system)}.`;
}

function devVerdict(test: NonNullable<EntryPairComparison["devTest"]>): Verdict {
  if (test.p_exact >= SIGNIFICANCE_LEVEL || test.b === test.c) return "no significant difference";
  return test.b > test.c ? "better" : "worse";
}

function ComparisonResult({ result, coarseBelowN }: { result: EntryPairComparison; coarseBelowN: number | null }) {
  return (
    <div className="space-y-8">
      <PairedTestSection result={result} />

      <TypeDifferencesSection result={result} coarseBelowN={coarseBelowN} />
    </div>
  );
}

function PairedTestSection({ result }: { result: EntryPairComparison }) {
  const metric = result.metric;
  const metricLabel = METRIC_LABELS[metric];
  const test = result.devTest;
  return (
    <section aria-labelledby="test" className="space-y-3">
      <h2 id="test" className="text-2xl font-semibold">
        <Link href={`/entries/${result.a.id}`}>{result.a.system}</Link> vs{" "}
        <Link href={`/entries/${result.b.id}`}>{result.b.system}</Link>
      </h2>
      <p className="text-lg" data-testid="pair-verdict">
        <strong>{verdictSentence(result)}</strong>
      </p>
      <p className="max-w-3xl text-sm">
        {result.reading !== null ? (
          <>
            The test of the leaderboard&apos;s <strong>{result.reading.view}</strong> view (McNemar&apos;s exact test on {metricLabel}, Holm-adjusted
            among the view&apos;s entries), over the {formatCount(result.n)} samples of the ranking slice of {result.release.name}{" "}
            {result.release.version}: the same verdict the leaderboard, the matrix and the entry pages print for this pair. Difference of the
            shown values: {formatDifference(result.reading.difference, metric)}.
          </>
        ) : (
          <>
            McNemar&apos;s exact test on {metricLabel}
            {metric === "unified" ? " (the entries are on different tracks: alias for open-world, alias Hit@1 for closed-world)" : " (the primary metric of their track)"}
            , over the {formatCount(result.n)} samples of the {result.split} split of {result.release.name} {result.release.version}.
          </>
        )}
      </p>
      {test !== null && (
        <TableShell
          caption={<>Paired test (the dev split&apos;s gold is public)</>}
          region="Paired test"
          head={
            <>
              <th scope="col">b: only A right</th>
              <th scope="col">c: only B right</th>
              <th scope="col">χ²</th>
              <th scope="col">p</th>
              <th scope="col">exact p</th>
            </>
          }
        >
          <tr className="border-b border-line tabular-nums">
            <td>{formatCount(test.b)}</td>
            <td>{formatCount(test.c)}</td>
            <td>{formatDecimal(test.chi2, 2)}</td>
            <td>{formatPValue(test.p)}</td>
            <td>{formatPValue(test.p_exact)}</td>
          </tr>
        </TableShell>
      )}
      <p>
        A = {result.a.system}: <EstimateText estimate={result.a.overall} metric={metric} />; B = {result.b.system}:{" "}
        <EstimateText estimate={result.b.overall} metric={metric} />.
      </p>
    </section>
  );
}

function TypeDifferencesSection({ result, coarseBelowN }: { result: EntryPairComparison; coarseBelowN: number | null }) {
  const metric = result.metric;
  const metricLabel = METRIC_LABELS[metric];
  const bars = result.byType.map((row) => ({
    type: row.type,
    // In percent, rounded: a difference of two shown values travels as 14, not 14.000000000000002 (section 12's digits).
    difference: row.difference === null ? null : roundTo(row.difference * 100, 2),
  }));
  return (
    <section aria-labelledby="types" className="space-y-3">
      <h2 id="types" className="text-2xl font-semibold">
        Differences by entity type
      </h2>
      <TableShell
        caption={
          <>
            {metricLabel} per entity type with 95% intervals; the difference is A − B in percentage points. Rates of types below{" "}
            {formatCount(coarseBelowN)} ranking samples are whole points (
            {/* Underlined: in a caption, which the site's running-text link rule (globals.css) does not cover (axe link-in-text-block). */}
            <a href="/leaderboard#explain-rounding" className="underline underline-offset-2">
              why
            </a>
            ).
          </>
        }
        region="Per-type differences"
        head={
          <>
            <th scope="col">Entity type</th>
            <th scope="col" className="text-right">n</th>
            <th scope="col" className="text-right">A: {result.a.system}</th>
            <th scope="col" className="text-right">B: {result.b.system}</th>
            <th scope="col" className="text-right">A − B</th>
          </>
        }
      >
        {result.byType.map((row) => (
          <tr key={row.type} className="border-b border-line">
            <th scope="row">{row.type}</th>
            <td className="text-right tabular-nums">{formatCount(row.n)}</td>
            <td className="text-right">
              <EstimateText estimate={row.a} metric={metric} isWholePoints={isWholePointGroup(row.n, coarseBelowN)} />
            </td>
            <td className="text-right">
              <EstimateText estimate={row.b} metric={metric} isWholePoints={isWholePointGroup(row.n, coarseBelowN)} />
            </td>
            <td className="text-right tabular-nums">{row.difference === null ? "–" : formatDifference(row.difference, metric, isWholePointGroup(row.n, coarseBelowN))}</td>
          </tr>
        ))}
      </TableShell>
      <TypeDifferenceChart
        bars={bars}
        unit="A − B (percentage points)"
        axisLabel="A − B (pp)"
        title={`${metricLabel}: ${result.a.system} minus ${result.b.system} per entity type`}
      />
    </section>
  );
}

export default async function ComparePage({ searchParams }: PageProps) {
  const params = firstValues(await searchParams);
  // Only test-split entries: every public entry there can be paired with every other (a dev baseline could only fail, "scored on different data").
  const list = await listPublicEntries({ kind: "all", split: "test" });
  if (list === null) {
    return (
      <div className="space-y-4">
        <h1 className="text-3xl font-bold">Compare entries</h1>
        <p>No dataset release is active yet, so there is nothing to compare.</p>
      </div>
    );
  }
  const wanted = compareQuerySchema.safeParse(params);
  let result: EntryPairComparison | null = null;
  let problem: string | null = null;
  if (wanted.success) {
    try {
      result = await comparePublicEntries(wanted.data.a, wanted.data.b);
    } catch (error) {
      if (!isAppError(error)) throw error;
      problem = error.message;
    }
  } else if (params.a !== undefined || params.b !== undefined) {
    problem = "Choose two entries to compare.";
  }
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Compare entries</h1>
        <p className="max-w-3xl text-muted">
          Any two public entries of the test split of {list.release.name} {list.release.version}: a paired
          McNemar test on their stored per-sample outcomes (computed on the server; only aggregate counts are shown) and
          their per-type differences.
        </p>
      </header>
      <form action="/compare" method="get" className="flex flex-wrap items-end gap-3 rounded border border-line bg-white p-3 text-sm">
        <EntryPicker name="a" label="Entry A" entries={list.entries} selected={params.a} />
        <EntryPicker name="b" label="Entry B" entries={list.entries} selected={params.b} />
        <button type="submit" className="rounded border border-accent bg-accent px-4 py-1 text-white">
          Compare
        </button>
      </form>
      {problem && (
        <p role="alert" className="rounded border border-red-700 bg-red-50 p-3 text-red-900">
          {problem}
        </p>
      )}
      {result && <ComparisonResult result={result} coarseBelowN={(await findGroupPolicy(list.release.id))?.coarseBelowN ?? null} />}
      {result === null && problem === null && (
        <p>
          Pick two entries above, or start from an entry&apos;s page. <Badge tone="baseline">baseline</Badge> rows are the
          maintainers&apos; reference systems.
        </p>
      )}
    </div>
  );
}
