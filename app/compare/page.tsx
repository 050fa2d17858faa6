import type { Metadata } from "next";
import Link from "next/link";
import { TypeDifferenceChart } from "@/components/charts/type-difference-chart";
import { Badge, EstimateText } from "@/components/leaderboard/estimate-text";
import { isAppError } from "@/lib/errors";
import { comparePublicEntries, type EntryPairComparison } from "@/lib/leaderboard/compare-public-entries";
import { formatDecimal, formatDifference, formatPValue } from "@/lib/format/numbers";
import { listPublicEntries, type PublicEntrySummary } from "@/lib/leaderboard/list-public-entries";
import { compareQuerySchema, firstValues } from "@/lib/leaderboard/query-schemas";
import { SIGNIFICANCE_LEVEL } from "@/lib/disclosure/disclose";
import { METRIC_LABELS } from "@/lib/leaderboard/views";

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
            {entry.system} ({entry.track}, {entry.split}
            {entry.isBaseline ? ", baseline" : ""})
          </option>
        ))}
      </select>
    </label>
  );
}

function verdictOf(result: EntryPairComparison): string {
  const { b, c, p } = result.test;
  if (b + c === 0) return "The two entries are right and wrong on exactly the same samples.";
  if (p >= SIGNIFICANCE_LEVEL) return `The difference is not significant at the ${SIGNIFICANCE_LEVEL} level.`;
  const winner = b > c ? result.a.system : result.b.system;
  return `${winner} is significantly better (p < ${SIGNIFICANCE_LEVEL}).`;
}

function ComparisonResult({ result }: { result: EntryPairComparison }) {
  const metric = result.metric;
  const metricLabel = METRIC_LABELS[metric];
  const { test } = result;
  const bars = result.byType.map((row) => ({
    type: row.type,
    difference: row.difference === null ? null : Number((row.difference * 100).toFixed(2)),
  }));
  return (
    <div className="space-y-8">
      <section aria-labelledby="test" className="space-y-3">
        <h2 id="test" className="text-2xl font-semibold">
          <Link href={`/entries/${result.a.id}`}>{result.a.system}</Link> vs{" "}
          <Link href={`/entries/${result.b.id}`}>{result.b.system}</Link>
        </h2>
        <p className="max-w-3xl text-sm">
          McNemar&apos;s test with continuity correction on {metricLabel}
          {metric === "unified" ? " (the entries are on different tracks: alias for open-world, alias Hit@1 for closed-world)" : " (the primary metric of their track)"}
          , over the {result.n.toLocaleString("en")} samples of the {result.split} split of {result.release.name} {result.release.version}.
          Only the counts of discordant samples are shown.
        </p>
        <div className="relative overflow-x-auto">
          <table className="min-w-full bg-white text-sm">
            <caption className="mb-1 text-left text-muted">Paired test</caption>
            <thead className="border-b border-line">
              <tr>
                <th scope="col">b: only A right</th>
                <th scope="col">c: only B right</th>
                <th scope="col">χ²</th>
                <th scope="col">p</th>
                <th scope="col">exact p</th>
              </tr>
            </thead>
            <tbody>
              <tr className="border-b border-line tabular-nums">
                <td>{test.b.toLocaleString("en")}</td>
                <td>{test.c.toLocaleString("en")}</td>
                <td>{formatDecimal(test.chi2, 2)}</td>
                <td>{formatPValue(test.p)}</td>
                <td>{formatPValue(test.p_exact)}</td>
              </tr>
            </tbody>
          </table>
        </div>
        <p>
          <strong>{verdictOf(result)}</strong> A = {result.a.system}: <EstimateText estimate={result.a.overall} metric={metric} />; B ={" "}
          {result.b.system}: <EstimateText estimate={result.b.overall} metric={metric} />.
        </p>
      </section>

      <section aria-labelledby="types" className="space-y-3">
        <h2 id="types" className="text-2xl font-semibold">
          Differences by entity type
        </h2>
        <div role="region" aria-label="Per-type differences" tabIndex={0} className="relative overflow-x-auto">
          <table className="min-w-full bg-white text-sm">
            <caption className="mb-1 text-left text-muted">
              {metricLabel} per entity type with 95% intervals; the difference is A − B in percentage points
            </caption>
            <thead className="border-b border-line">
              <tr>
                <th scope="col">Entity type</th>
                <th scope="col" className="text-right">n</th>
                <th scope="col" className="text-right">A: {result.a.system}</th>
                <th scope="col" className="text-right">B: {result.b.system}</th>
                <th scope="col" className="text-right">A − B</th>
              </tr>
            </thead>
            <tbody>
              {result.byType.map((row) => (
                <tr key={row.type} className="border-b border-line">
                  <th scope="row">{row.type}</th>
                  <td className="text-right tabular-nums">{row.n.toLocaleString("en")}</td>
                  <td className="text-right">
                    <EstimateText estimate={row.a} metric={metric} />
                  </td>
                  <td className="text-right">
                    <EstimateText estimate={row.b} metric={metric} />
                  </td>
                  <td className="text-right tabular-nums">{row.difference === null ? "–" : formatDifference(row.difference, metric)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <TypeDifferenceChart
          bars={bars}
          unit="A − B (percentage points)"
          axisLabel="A − B (pp)"
          title={`${metricLabel}: ${result.a.system} minus ${result.b.system} per entity type`}
        />
      </section>
    </div>
  );
}

export default async function ComparePage({ searchParams }: PageProps) {
  const params = firstValues(await searchParams);
  const list = await listPublicEntries({ kind: "all" });
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
          Any two public entries scored on the same split of {list.release.name} {list.release.version}: a paired
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
      {result && <ComparisonResult result={result} />}
      {result === null && problem === null && (
        <p>
          Pick two entries above, or start from an entry&apos;s page. <Badge tone="baseline">baseline</Badge> rows are the
          maintainers&apos; reference systems.
        </p>
      )}
    </div>
  );
}
