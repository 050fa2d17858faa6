import Link from "next/link";
import { ForestPlot } from "@/components/charts/forest-plot";
import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { leaderboardFiltersSchema, type LeaderboardFilters } from "@/lib/core/leaderboard/filter-rows";
import type { LeaderboardView } from "@/lib/core/leaderboard/leaderboard-types";
import { forestPlotData } from "@/lib/core/leaderboard/forest-plot-data";
import { formatCount, formatEstimate, formatSuppressedGroup } from "@/lib/core/format/numbers";
import { cohortOfPageFilters, cohortPairs, describeCohort, hasCohort } from "@/lib/core/leaderboard/cohort-filters";
import { applyTableQuery, type TableQuery } from "@/lib/core/leaderboard/table-query";
import { matrixHref, progressHref } from "@/lib/core/leaderboard/view-links";
import { METRIC_LABELS, metricGroupsOf, TRACK_LABELS, TYPE_SLUGS } from "@/lib/core/leaderboard/views";
import { ExportLinks } from "./export-links";
import { LeaderboardTable } from "./leaderboard-table";
import { ReadingGuide } from "./reading-guide";
import { NO_GROUP_MRR_EXPLANATION } from "@/lib/core/format/explanations";
import { findGroupPolicy } from "@/lib/domain/releases/find-group-policy";
import { findEntryLinks } from "@/lib/domain/leaderboard/find-entry-links";
import { IRC_BENCH_PAPER } from "@/lib/core/dataset/paper";
import { viewHeadline } from "@/lib/core/leaderboard/headline";
import { ScopeSwitcher, TrackSwitcher, TypeSwitcher } from "./view-switchers";

const TRACK_NOTES = {
  open: "Open-world entries name the entity in free text. Exact, Alias, Contain and Jaccard are cumulative matching tiers; entries are ranked by Alias (alias-aware accuracy), the primary metric.",
  closed: "Closed-world entries rank knowledge-base entities. Entries are ranked by Hit@1, the primary metric; Alias Hit@1 also accepts a top entity whose name is the gold's name or an alias.",
  unified: "Both tracks on one scale: alias-aware top-1 accuracy, which is Alias for open-world entries and Alias Hit@1 for closed-world ones.",
} as const;

function typeCountsOf(view: LeaderboardView): Partial<Record<EntityType, number>> {
  const counts: Partial<Record<EntityType, number>> = {};
  const source = view.rows.find((row) => row.kind !== "reported" && row.byType !== null);
  for (const type of ENTITY_TYPES) {
    const n = source?.byType?.[type]?.n;
    if (n !== undefined && n !== null) counts[type] = n;
  }
  return counts;
}

/** A type view in which no entry has a number: the type's group is not shown (section 12), said once instead of a grid of dashes. */
function hiddenTypeNote(view: LeaderboardView): string | null {
  if (view.type === null) return null;
  const entries = view.rows.filter((row) => row.kind !== "reported");
  if (entries.length === 0) return null;
  const isHidden = entries.every((row) => Object.values(row.metrics).every((estimate) => estimate === null || estimate === undefined));
  if (!isHidden) return null;
  const n = entries[0]?.n ?? null;
  const reason =
    n !== null && n < view.minGroupN
      ? `the ranking slice has ${formatCount(n)} ${view.type} samples (${formatSuppressedGroup(n, view.minGroupN)}), fewer than the ${formatCount(view.minGroupN)} this release needs before it shows a group`
      : `the ${view.type} group is hidden together with smaller groups, so that the overall numbers minus the shown types cannot give the small ones back`;
  return `No ${view.type} numbers can be shown on this release: ${reason}. Ranks, marks and per-entry scores of this type are withheld for every entry; the all-types view and the other types are unaffected.`;
}

/** Where the paper's numbers are (protocol §12: reported results are on the whole test split): above the table, with the paper linked. */
function ReportedNote({ hasReported, release, isReportedFilter }: { hasReported: boolean; release: LeaderboardView["release"]; isReportedFilter: boolean }) {
  const paper = (
    <a href={IRC_BENCH_PAPER.href} data-testid="paper-link">
      {IRC_BENCH_PAPER.title}
    </a>
  );
  if (hasReported) {
    return (
      <p className="max-w-4xl text-sm" data-testid="reported-note">
        <strong>Reported</strong> rows are the numbers of the paper ({paper}) on the whole test split, typed in by the maintainers: no rank,
        interval or significance test.
      </p>
    );
  }
  return (
    <p className={`max-w-4xl text-sm ${isReportedFilter ? "rounded border border-line bg-white p-3" : ""}`} data-testid="no-reported">
      No reported results for this release ({release.name} {release.version}): the paper&apos;s numbers ({paper}) were measured on the IRC-Bench
      test split, not on this release&apos;s.
    </p>
  );
}

function filtersOf(query: TableQuery): LeaderboardFilters {
  return leaderboardFiltersSchema.parse(query);
}

/** A leaderboard view (all types, or one entity type) with its switchers, guide, table and downloads. */
// eslint-disable-next-line max-lines-per-function -- the view's notes, table and charts in page order; to split (issue 33 follow-up)
export async function LeaderboardViewSection({ view, query, archivedVersion }: { view: LeaderboardView; query: TableQuery; archivedVersion?: string }) {
  const { track, type, release } = view;
  const [groupPolicy, rowLinks] = await Promise.all([
    findGroupPolicy(release.id),
    findEntryLinks(view.rows.flatMap((row) => (row.entryId === null ? [] : [row.entryId]))),
  ]);
  const hasTypeNumbers = type !== null || query.types === "show";
  const cohort = cohortOfPageFilters(query);
  const cohortQuery = cohortPairs(cohort)
    .map(([key, value]) => `&${key}=${encodeURIComponent(value)}`)
    .join("");
  // A superseded release's board (?release=VERSION) keeps its version in the table's links; the matrix, timeline and downloads are the active release's.
  const baseQuery: [string, string][] = [["track", track]];
  if (query.scope === "all") baseQuery.push(["scope", "all"]);
  if (archivedVersion !== undefined) baseQuery.push(["release", archivedVersion]);
  const typeQuery = `${type === null ? "" : `&type=${TYPE_SLUGS[type]}`}${query.scope === "all" ? "&scope=all" : ""}${cohortQuery}`;
  const scopeQuery = query.scope === "all" ? "&scope=all" : "";
  const rankLabel = METRIC_LABELS[view.rankMetric];
  const best = view.bestBaseline;
  const bestRow = best === null ? undefined : view.rows.find((row) => row.key === best.id);
  const caption =
    type === null
      ? `${TRACK_LABELS[track]} leaderboard of ${release.name} ${release.version}, test split, ranked by ${rankLabel}`
      : `${TRACK_LABELS[track]} leaderboard on ${type} samples of ${release.name} ${release.version}, test split, ranked by ${rankLabel}`;
  const typeN = type === null ? null : view.rows.find((row) => row.kind !== "reported")?.n ?? null;
  const rankingN = view.rows.find((row) => row.kind !== "reported")?.n ?? null;
  const hasReported = view.rows.some((row) => row.kind === "reported");
  const hiddenNote = hiddenTypeNote(view);
  const headline = type === null && !hasCohort(cohort) ? viewHeadline(view) : null;
  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-start gap-x-6 gap-y-2" data-testid="view-controls">
        <TrackSwitcher current={track} type={type} keep={`${scopeQuery}${cohortQuery}`} />
        <TypeSwitcher current={type} track={track} keep={`${scopeQuery}${cohortQuery}`} />
      </div>
      {headline !== null && (
        <p className="max-w-4xl font-medium" data-testid="view-headline">
          {headline.text}
        </p>
      )}
      {hasCohort(cohort) && (
        <p className="max-w-3xl rounded border border-accent bg-white p-2 text-sm" data-testid="cohort-note">
          Filtered by fact sheet or provenance ({describeCohort(cohort)}):{" "}
          {cohort.tier === "reported"
            ? "only results reported in papers, which have no rank, interval or significance test; no baseline or scored entry is shown."
            : "ranks, marks and intervals are recomputed among the entries shown; baselines always stay as the reference."} <Link href={`${type === null ? "/leaderboard" : `/leaderboard/types/${TYPE_SLUGS[type]}`}?track=${track}${scopeQuery}`}>Show every entry</Link>.
        </p>
      )}
      {cohort.tier === "reported" && <ReportedNote hasReported={hasReported} release={release} isReportedFilter />}
      {hiddenNote !== null && (
        <p className="max-w-3xl rounded border border-amber-700 bg-amber-50 p-3 text-sm" data-testid="type-hidden-note">
          {hiddenNote}
        </p>
      )}
      {view.rows.length === 0 ? (
        cohort.tier === "reported" ? null : <p>No entry is on this leaderboard yet.</p>
      ) : hiddenNote !== null && !hasReported ? null : (
        <LeaderboardTable
          // A new view (track or type) starts from its own state, not the previous view's.
          key={`${track}:${type ?? "all"}`}
          page={applyTableQuery(view, query)}
          track={track}
          type={type}
          rankMetric={view.rankMetric}
          groups={[...metricGroupsOf(track)]}
          hasSignificance={best !== null}
          filters={filtersOf(query)}
          showTypes={type === null && query.types === "show"}
          typeCounts={typeCountsOf(view)}
          hasReported={hasReported}
          caption={caption}
          baseQuery={baseQuery}
          minGroupN={view.minGroupN}
          rowLinks={rowLinks}
          coarseBelowN={groupPolicy?.coarseBelowN ?? null}
        />
      )}
      <p className="max-w-4xl text-sm" data-testid="rank-interval-line">
        <strong>Rank</strong> <code>2–5</code> means: 1 + the entries significantly better than it, up to N − the entries it is significantly
        better than (McNemar&apos;s exact test on the ranking slice{rankingN === null ? "" : ` of ${formatCount(rankingN)} test samples`}, Holm-adjusted);
        tap a rank for its reason.{hasReported ? " Reported results (from papers) are on the whole test split and get no rank." : ""}
      </p>
      {cohort.tier !== "reported" && <ReportedNote hasReported={hasReported} release={release} isReportedFilter={false} />}
      {hasTypeNumbers && groupPolicy !== null && view.rows.length > 0 && (
        <p className="max-w-3xl text-sm" data-testid="whole-points-note">
          Per-type rates of groups below {formatCount(groupPolicy.coarseBelowN)} ranking samples are rounded to whole points and shown as
          whole points (5 of 7 right reads 71).{" "}
          <a href="#explain-rounding" data-testid="whole-points-rule-link">
            Why whole points
          </a>
          {track === "closed" && type !== null ? <span data-testid="no-group-mrr"> · MRR shows – here: {NO_GROUP_MRR_EXPLANATION}</span> : null}
        </p>
      )}
      {archivedVersion === undefined && (
        <ExportLinks
          base={`/api/leaderboard/export?track=${track}${typeQuery}`}
          label="Download this table (all rows)"
          apiUrl={`/api/leaderboard?track=${track}${typeQuery}`}
        />
      )}
      <p className="max-w-3xl text-sm">{TRACK_NOTES[track]}</p>
      {type !== null && (
        <p className="max-w-3xl text-sm">
          Every score here is computed on the {typeN === null ? "" : `${formatCount(typeN)} `}
          {type} samples of the ranking slice only, with its own interval, and the ranks and marks come from paired tests on
          those samples alone (none when the type has too few samples to show). Each entry&apos;s page has its full
          type-by-metric table.
        </p>
      )}
      {type === null &&
        (best === null ? (
          <p className="text-sm">No baseline of this view is scored yet, so there are no significance marks.</p>
        ) : (
          <p className="text-sm">
            Best baseline: <Link href={`/entries/${best.id}`}>{best.name}</Link> ({rankLabel}{" "}
            {formatEstimate(bestRow?.metrics[view.rankMetric], view.rankMetric)}).
          </p>
        ))}
      <ScopeSwitcher track={track} type={type} scope={query.scope} keep={cohortQuery} />
      <ReadingGuide withSignificance={type === null && best !== null} rankingN={rankingN} groupPolicy={groupPolicy} />
      <ForestPlot data={forestPlotData(view)} />
      {archivedVersion === undefined && (
        <p className="text-sm">
          <Link href={matrixHref(track, type, cohortQuery)}>Pairwise significance matrix</Link> of this view: the paired test behind the
          ranks, for every pair of its top entries. <Link href={progressHref(track, type)}>Progress over time</Link>: the
          best published score of this view by date, with its states of the art.
        </p>
      )}
      <p className="text-sm">
        <Link href="/compare">Compare two entries</Link>: the same verdict of the pair as here, with per-type differences.
      </p>
    </div>
  );
}
