import type { Metadata } from "next";
import Link from "next/link";
import { notFound } from "next/navigation";
import { PairwiseMatrixGrid } from "@/components/leaderboard/pairwise-matrix-grid";
import { cohortOf, cohortPairs } from "@/lib/core/leaderboard/cohort-filters";
import { getLeaderboard } from "@/lib/domain/leaderboard/get-leaderboard";
import { matrixGrid } from "@/lib/core/leaderboard/matrix-grid";
import { firstValues, matrixPageQuerySchema } from "@/lib/core/leaderboard/query-schemas";
import { leaderboardViewHref, matrixHref } from "@/lib/core/leaderboard/view-links";
import { LEADERBOARD_TRACKS, METRIC_LABELS, TRACK_LABELS } from "@/lib/core/leaderboard/views";

export const metadata: Metadata = { title: "Pairwise significance matrix" };
export const dynamic = "force-dynamic";

type PageProps = { searchParams: Promise<Record<string, string | string[] | undefined>> };

function Swatch({ tone, symbol }: { tone: string; symbol: string }) {
  return (
    <span aria-hidden="true" className={`inline-block w-6 rounded border border-line text-center ${tone}`}>
      {symbol}
    </span>
  );
}

/** The section 13 tests between a view's top entries, one cell per pair. */
// eslint-disable-next-line max-lines-per-function -- the page's query parsing, data load and markup; its parts are components already
export default async function MatrixPage({ searchParams }: PageProps) {
  const parsed = matrixPageQuerySchema.safeParse(firstValues(await searchParams));
  if (!parsed.success) {
    notFound();
  }
  const { track } = parsed.data;
  const type = parsed.data.type ?? null;
  const viewName = `${TRACK_LABELS[track]}${type === null ? "" : `, ${type} samples`}`;
  const cohort = cohortOf(parsed.data);
  const keep = cohortPairs(cohort)
    .map(([key, value]) => `&${key}=${encodeURIComponent(value)}`)
    .join("");
  const snapshot = await getLeaderboard({ track, type, cohort });
  const backLink = (
    <p className="text-sm">
      <Link href={leaderboardViewHref(track, type)}>Back to the {viewName} leaderboard</Link>
    </p>
  );
  if (snapshot === null) {
    return (
      <div className="space-y-4">
        <h1 className="text-3xl font-bold">Pairwise significance matrix</h1>
        <p>No dataset release is active yet, so there is nothing to compare.</p>
        {backLink}
      </div>
    );
  }
  const { view } = snapshot;
  const grid = matrixGrid(view);
  const rankedCount = view.rows.filter((row) => row.rank !== null).length;
  const metricLabel = METRIC_LABELS[view.rankMetric];
  const caption = `Pairwise significance matrix of the ${viewName} view of ${view.release.name} ${view.release.version}, test split, on ${metricLabel}`;
  return (
    <div className="space-y-5">
      <header className="space-y-2">
        <h1 className="text-3xl font-bold">Pairwise significance matrix</h1>
        <p className="max-w-3xl text-muted">
          {viewName} view of {view.release.name} {view.release.version}, test split, on {metricLabel}.
        </p>
        {backLink}
      </header>
      <nav aria-label="Track" className="text-sm">
        <ul className="flex flex-wrap gap-3">
          {LEADERBOARD_TRACKS.map((other) => (
            <li key={other}>
              <Link href={matrixHref(other, type, keep)} aria-current={other === track ? "page" : undefined} className={other === track ? "font-semibold" : ""}>
                {TRACK_LABELS[other]}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <p className="max-w-3xl text-sm" data-testid="matrix-explanation">
        Each cell is the paired test of protocol section 13 between the row entry and the column entry: McNemar&apos;s test
        on the per-sample outcomes, Holm-adjusted in the family of the entry that is behind (its comparisons with every
        other entry of the view), the same test the ranks count.
      </p>
      {grid === null ? (
        <p data-testid="matrix-empty" className="rounded border border-line bg-white p-3">
          This view has no ranks, so there is no matrix: either no entry of it can be tested yet, or its entity type has too
          few test samples to show (protocol section 12).
        </p>
      ) : (
        <>
          <ul aria-label="Legend" className="flex flex-wrap gap-x-5 gap-y-1 text-sm">
            <li className="flex items-center gap-1">
              <Swatch tone="bg-green-100 text-green-900" symbol="▲" /> row entry significantly better
            </li>
            <li className="flex items-center gap-1">
              <Swatch tone="bg-red-100 text-red-900" symbol="▼" /> column entry significantly better
            </li>
            <li className="flex items-center gap-1">
              <Swatch tone="bg-slate-100 text-slate-700" symbol="·" /> no significant difference (adjusted p ≥ 0.05)
            </li>
          </ul>
          <p className="text-sm text-muted">
            Each cell reads: the row entry&apos;s {metricLabel} minus the column entry&apos;s, in points, and the Holm-adjusted
            p.
            {rankedCount > grid.entries.length &&
              ` The ${grid.entries.length} entries with the highest point estimates of ${rankedCount} ranked are shown.`}
          </p>
          <PairwiseMatrixGrid grid={grid} caption={caption} />
        </>
      )}
    </div>
  );
}
