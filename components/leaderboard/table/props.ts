import type { EntityType } from "@/lib/core/dataset/release-schema";
import type { LeaderboardFilters } from "@/lib/core/leaderboard/filter-rows";
import type { TablePage } from "@/lib/core/leaderboard/table-query";
import type { LeaderboardTrack, MetricGroup, ViewMetric } from "@/lib/core/leaderboard/views";

/** What the page gives the leaderboard table. */
export type LeaderboardTableProps = {
  page: TablePage;
  track: LeaderboardTrack;
  type: EntityType | null;
  rankMetric: ViewMetric;
  groups: MetricGroup[];
  /** Whether a best baseline exists, so the significance column means something. */
  hasSignificance: boolean;
  /** The filters of the URL this page was rendered for. */
  filters: LeaderboardFilters;
  /** Whether the per-type columns are shown (their numbers come with the page only then). */
  showTypes: boolean;
  /** Samples per entity type in the split, for the per-type headers. */
  typeCounts: Partial<Record<EntityType, number>>;
  hasReported: boolean;
  caption: string;
  /** Query pairs kept in the URL beside the table's own (the track). */
  baseQuery: [string, string][];
  /** The release's min_group_n: a per-type cell without numbers says why (section 12). */
  minGroupN: number;
  /** Paper and code links of the page's entries, from their fact sheets. */
  rowLinks: RowLinks;
  /** Public group rates of groups below this many ranking samples are whole points (section 12); null when the page does not know. */
  coarseBelowN: number | null;
};

/** Paper and code links of the page's entries, from their fact sheets, by row key. */
export type RowLinks = Record<string, { paper: string | null; code: string | null }>;
