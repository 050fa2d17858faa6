import type { EntityType } from "@/lib/dataset/release-schema";
import type { MetricKey, Track } from "@/lib/scoring/tracks";
import type { Interval, ReleaseRef, TypeGroupScore } from "./leaderboard-types";

/** Everything the entry page and GET /api/entries/[id] show of one public entry: aggregates only. */

export type EntryComparison = {
  baselineId: string;
  baselineName: string;
  metric: string;
  b: number;
  c: number;
  chi2: number;
  p: number;
  pExact: number;
  pHolm: number;
};

export type EntryScore = {
  n: number;
  scorerVersion: string;
  goldSha256: string;
  computedAt: string;
  isStale: boolean;
  metrics: Partial<Record<MetricKey, number>>;
  ci95: Partial<Record<MetricKey, Interval>>;
  byType: Partial<Record<EntityType, TypeGroupScore>>;
  byCollection: Record<string, { n: number; metrics: Partial<Record<string, number>> }>;
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
  paperUrl: string | null;
  codeUrl: string | null;
  parameterCount: number | null;
  isOpenWeights: boolean | null;
  externalData: string | null;
  publishedAt: string | null;
  createdAt: string;
  release: ReleaseRef;
  score: EntryScore | null;
  comparisons: EntryComparison[];
};
