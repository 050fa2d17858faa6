import type { EntityType } from "@/lib/core/dataset/release-schema";
import type { Approach } from "@/lib/core/fact-sheet/schema";
import type { ProvenanceTier } from "@/lib/core/fact-sheet/tiers";
import type { PairReading, PublicCounts, PValueBucket } from "@/lib/core/disclosure/disclose";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";
import type { Track } from "@/lib/core/scoring/tracks";
import type { LeaderboardTrack, ViewMetric } from "./views";

/**
 * The shapes the leaderboard is built from (what the database holds, already
 * parsed) and the rows it shows. Plain data only: rows cross from server
 * components to the client table and into the JSON API.
 */

export type Interval = [number, number];

/** A point estimate with its 95% bootstrap interval; reported results have no interval. */
export type Estimate = { value: number; ci95: Interval | null };

/** A per-type estimate: `n` samples of that type (null when a paper does not say), `value` null when n = 0 (section 8). */
export type TypeEstimate = { n: number | null; value: number | null; ci95: Interval | null; isSuppressed?: boolean };

export type TypeGroupScore = {
  n: number;
  /** Too few samples to show on the test split (section 12): n only. */
  isSuppressed?: boolean;
  metrics: Partial<Record<string, number | null>>;
  ci95: Partial<Record<string, Interval | null>>;
};

/** The parts of a stored score report (section 11) the leaderboard reads. */
type ScoreSummary = {
  n: number;
  scorerVersion: string;
  goldSha256: string;
  computedAt: string;
  metrics: Partial<Record<string, number>>;
  ci95: Partial<Record<string, Interval>>;
  byType: Partial<Record<EntityType, TypeGroupScore>>;
};

/** A public, scored entry of the leaderboard's release and split. */
export type EntrySource = {
  id: string;
  /** Per-sample outcomes in gold order: the paired tests of section 13 read them; they never reach a page. */
  outcomes: SampleOutcomes;
  track: Track;
  isBaseline: boolean;
  system: string;
  team: string;
  parameterCount: number | null;
  isOpenWeights: boolean | null;
  /** Fact-sheet answers the cohort filters read (lib/core/leaderboard/cohort-filters.ts); null when not stated. */
  approach: Approach | null;
  usesSourceData: boolean | null;
  knowledgeCutoff: string | null;
  /** Provenance tier (lib/core/fact-sheet/tiers.ts): baselines are "scored". */
  tier: ProvenanceTier;
  /** ISO date of publication (baselines: of scoring). */
  date: string | null;
  score: ScoreSummary;
  /** Section 12's perturbed counts behind its public numbers: every public order and pair reads these, never a stored report. */
  publicCounts: PublicCounts;
  /** The owner's account and whether they chose this as their primary entry of the track (lib/core/leaderboard/primary-entries.ts). */
  ownerId?: string;
  isPrimary?: boolean;
};

/** A result reported in a paper: point values only. */
export type ReportedSource = {
  id: string;
  name: string;
  track: Track;
  n: number | null;
  metrics: Partial<Record<string, number>>;
  byType: Partial<Record<EntityType, { n?: number; metrics: Partial<Record<string, number>> }>> | null;
  source: string;
  /** The paper's date (YYYY-MM-DD), where the progress timeline draws the row; null when the file gave none. */
  date: string | null;
};

export type RowKind = "submission" | "baseline" | "reported";

/**
 * How an entry compares with the view's best baseline: the section 13 reading
 * of that pair (lib/core/disclosure readPair), the same verdict and p bucket every
 * other page prints for it.
 */
export type SignificanceMark = PairReading & { baselineId: string; baselineName: string; metric: string };

/**
 * Why an entry has its rank interval (section 13): the entries significantly
 * better than it (the low end is 1 + their number) and how many it is
 * significantly better than (the high end is N minus that).
 */
export type RankReason = { better: { entryId: string; system: string; pBucket: PValueBucket }[]; beats: number; ranked: number };

export type LeaderboardRow = {
  /** Unique row key: the submission id, or "reported:<id>". */
  key: string;
  kind: RowKind;
  /** The entry page's id; null for reported results. */
  entryId: string | null;
  system: string;
  team: string | null;
  track: Track;
  n: number | null;
  parameterCount: number | null;
  isOpenWeights: boolean | null;
  approach: Approach | null;
  usesSourceData: boolean | null;
  knowledgeCutoff: string | null;
  /** Provenance tier; "reported" for a paper's result. */
  tier: ProvenanceTier;
  date: string | null;
  isStale: boolean;
  /** Reported results: where the numbers come from. */
  source: string | null;
  /** Rank interval by paired tests (section 13): `rank` its low end, `rankHi` its high end; null for reported rows and entries that cannot be tested. */
  rank: number | null;
  rankHi: number | null;
  rankReason: RankReason | null;
  /** One estimate per metric column of the view (null where the row has no value). */
  metrics: Partial<Record<ViewMetric, Estimate | null>>;
  /** The ranking metric per entity type (overall views only). */
  byType: Partial<Record<EntityType, TypeEstimate>> | null;
  significance: SignificanceMark | null;
};

export type ReleaseRef = { id: string; name: string; version: string };

export type BestBaseline = { id: string; name: string; metric: ViewMetric; value: number };

/** One cell of the pairwise significance matrix: the row entry against the column entry (section 13). */
export type MatrixCell = PairReading & {
  /** "row": the row entry is significantly better; "column": the column entry is; "none": neither. */
  winner: "row" | "column" | "none";
};

/** The pairwise significance matrix of a view's top entries (by point estimate), for /leaderboard/matrix. */
export type PairwiseMatrix = {
  entries: { id: string; system: string; kind: RowKind; rank: number | null; rankHi: number | null; value: number | null }[];
  /** cells[i][j]: entries[i] against entries[j]; null on the diagonal. */
  cells: (MatrixCell | null)[][];
};

export type LeaderboardView = {
  release: ReleaseRef;
  split: "test";
  track: LeaderboardTrack;
  /** Set for the entity-type view: every metric is of that type's samples. */
  type: EntityType | null;
  rankMetric: ViewMetric;
  columns: readonly ViewMetric[];
  bestBaseline: BestBaseline | null;
  rows: LeaderboardRow[];
  /** The release's min_group_n, so a page can say why a per-type cell is empty (section 12). */
  minGroupN: number;
  /** The top MATRIX_SIZE ranked entries' pairwise tests; null when the view has no ranks. */
  matrix: PairwiseMatrix | null;
  /**
   * Server-side only (a function: never handed to a client component): the
   * section 13 reading of two ranked entries of the view, from the first's
   * side, or null when either is not ranked here. The entry and compare pages
   * read their pairs through it, so every page prints the view's verdict.
   */
  readPair: (entryId: string, otherId: string) => PairReading | null;
};

/** A public, scored entry in a list: headline numbers only. */
export type PublicEntrySummary = {
  id: string;
  system: string;
  team: string;
  track: Track;
  split: "dev" | "test";
  isBaseline: boolean;
  n: number;
  /** The track's primary metric (alias / hit@1). */
  primary: number;
  /** Alias-aware top-1 accuracy, comparable across tracks. */
  unified: number;
  isStale: boolean;
  date: string;
};

export type PublicEntryList = { release: ReleaseRef; entries: PublicEntrySummary[] };
