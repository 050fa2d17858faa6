import type { EntityType } from "@/lib/core/dataset/release-schema";
import type { FactSheetField } from "@/lib/core/fact-sheet/completeness";
import type { FactSheet } from "@/lib/core/fact-sheet/schema";
import type { ProvenanceTier } from "@/lib/core/fact-sheet/tiers";
import type { DisclosedGroup, PairReading } from "@/lib/core/disclosure/disclose";
import type { MetricKey, Track } from "@/lib/core/scoring/tracks";
import type { Interval, ReleaseRef } from "./leaderboard-types";

/** Everything the entry page and GET /api/entries/[id] show of one public entry: aggregates only. */

/** A public comparison with one baseline: the section 13 reading of the pair in the entry's track view (all types), as the leaderboard prints it. */
export type EntryComparison = PairReading & { baselineId: string; baselineName: string; view: string; metric: string };

export type EntryScore = {
  n: number;
  /** The scorer's version (the report's scorer_version): what the downloaded scorer prints (lib/core/format/versions.ts). */
  scorerVersion: string;
  /** The platform scoring version the score was stored under (Score.scorerVersion): decides staleness. */
  platformScoringVersion: string;
  /** Gold version id (section 10), never the gold's SHA-256. */
  goldVersion: string;
  computedAt: string;
  isStale: boolean;
  /** Groups below this size show n only (section 12); null on the dev split. */
  minGroupN: number | null;
  /** Group rates are to 1 point below this size (section 12, publicGroupPolicy); null on the dev split. */
  coarseBelowN: number | null;
  metrics: Partial<Record<MetricKey, number>>;
  ci95: Partial<Record<MetricKey, Interval>>;
  byType: Partial<Record<EntityType, DisclosedGroup>>;
  byCollection: Record<string, DisclosedGroup>;
};

export type EntryDetail = {
  id: string;
  track: Track;
  split: "dev" | "test";
  isBaseline: boolean;
  system: string;
  team: string;
  affiliation: string;
  description: string | null;
  /** The fact sheet (lib/core/fact-sheet/schema.ts); null for baselines and entries published before it existed without details. */
  factSheet: FactSheet | null;
  /** Its answers still "not stated". */
  factSheetMissing: FactSheetField[];
  /** From the fact sheet, for the headline facts. */
  paperUrl: string | null;
  codeUrl: string | null;
  parameterCount: number | null;
  isOpenWeights: boolean | null;
  provenance: { tier: ProvenanceTier; reproducedAt: string | null; reproducedBy: string | null };
  publishedAt: string | null;
  createdAt: string;
  release: ReleaseRef;
  score: EntryScore | null;
  comparisons: EntryComparison[];
};
