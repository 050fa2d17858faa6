import type { z } from "zod";
import type { entryListSchema, entrySchema, leaderboardSchema } from "@/lib/core/api-schemas/leaderboard";
import type { DisclosedGroup } from "@/lib/core/disclosure/disclose";
import type { EntryDetail } from "./entry-types";
import type { LeaderboardRow, LeaderboardView, PublicEntryList } from "./leaderboard-types";
import { RANK_RULE } from "../ranking/rank-rule";
import { splitPartOf } from "./split-part";

/**
 * The public JSON API's bodies (docs/leaderboard.md): snake_case keys like the
 * score report of protocol section 11, rates as fractions at full precision,
 * intervals as [low, high]. Aggregates only.
 */

function apiRow(row: LeaderboardRow) {
  return {
    rank: row.rank,
    rank_lo: row.rank,
    rank_hi: row.rankHi,
    rank_reason: row.rankReason && {
      better: row.rankReason.better.map((better) => ({ id: better.entryId, system: better.system, p_bucket: better.pBucket })),
      beats: row.rankReason.beats,
      ranked: row.rankReason.ranked,
    },
    kind: row.kind,
    split_part: splitPartOf(row.kind),
    id: row.entryId,
    ...rowFacts(row),
    date: row.date,
    stale: row.isStale,
    source: row.source,
    metrics: row.metrics,
    by_type: row.byType,
    significance: row.significance && {
      baseline_id: row.significance.baselineId,
      baseline: row.significance.baselineName,
      metric: row.significance.metric,
      verdict: row.significance.verdict,
      p_bucket: row.significance.pBucket,
      difference: row.significance.difference,
    },
    url: row.entryId === null ? null : `/entries/${row.entryId}`,
  };
}

type ApiPage = { offset: number; limit: number; next: string | null };

/** A row's facts in the API's snake_case names: the JSON body and the CSV and LaTeX exports share them. */
export function rowFacts(row: LeaderboardRow) {
  return {
      system: row.system,
      team: row.team,
      track: row.track,
      n: row.n,
      parameter_count: row.parameterCount,
      open_weights: row.isOpenWeights,
      approach: row.approach,
      uses_source_data: row.usesSourceData,
      knowledge_cutoff: row.knowledgeCutoff,
      tier: row.tier,
  };
}

/** Typed by the documented schema (lib/core/api-schemas/leaderboard.ts), so the OpenAPI document cannot drift from the body. */
export function leaderboardApiBody(view: LeaderboardView, page: ApiPage): z.input<typeof leaderboardSchema> {
  return {
    release: { name: view.release.name, version: view.release.version },
    split: view.split,
    track: view.track,
    type: view.type,
    rank_metric: view.rankMetric,
    columns: view.columns,
    rank_rule: RANK_RULE,
    best_baseline: view.bestBaseline,
    total: view.rows.length,
    offset: page.offset,
    limit: page.limit,
    next: page.next,
    entries: view.rows.slice(page.offset, page.offset + page.limit).map(apiRow),
  };
}

/** Groups in the report's snake_case; a suppressed group (section 12) has n and `suppressed: true`, no metrics. */
function apiGroups(groups: Partial<Record<string, DisclosedGroup>>) {
  const out: Record<string, { n: number; suppressed: boolean; metrics: DisclosedGroup["metrics"]; ci95: DisclosedGroup["ci95"] }> = {};
  for (const [name, group] of Object.entries(groups)) {
    if (group !== undefined) out[name] = { n: group.n, suppressed: group.isSuppressed, metrics: group.metrics, ci95: group.ci95 };
  }
  return out;
}

export function entryApiBody(entry: EntryDetail): z.input<typeof entrySchema> {
  const { score } = entry;
  return {
    id: entry.id,
    system: entry.system,
    team: entry.team,
    affiliation: entry.affiliation,
    track: entry.track,
    split: entry.split,
    baseline: entry.isBaseline,
    description: entry.description,
    paper_url: entry.paperUrl,
    code_url: entry.codeUrl,
    parameter_count: entry.parameterCount,
    open_weights: entry.isOpenWeights,
    fact_sheet: entry.factSheet,
    fact_sheet_missing: entry.factSheetMissing,
    provenance: { tier: entry.provenance.tier, reproduced_at: entry.provenance.reproducedAt, reproduced_by: entry.provenance.reproducedBy },
    published_at: entry.publishedAt,
    created_at: entry.createdAt,
    release: { name: entry.release.name, version: entry.release.version },
    score: score && {
      scorer_version: score.scorerVersion,
      platform_scoring_version: score.platformScoringVersion,
      gold_version: score.goldVersion,
      min_group_n: score.minGroupN,
      stale: score.isStale,
      computed_at: score.computedAt,
      n: score.n,
      metrics: score.metrics,
      ci95: score.ci95,
      by_type: apiGroups(score.byType),
      by_collection: apiGroups(score.byCollection),
    },
    comparisons: entry.comparisons.map((comparison) => ({
      baseline_id: comparison.baselineId,
      baseline: comparison.baselineName,
      view: comparison.view,
      metric: comparison.metric,
      verdict: comparison.verdict,
      p_bucket: comparison.pBucket,
      difference: comparison.difference,
    })),
    url: `/entries/${entry.id}`,
  };
}

export function entriesApiBody(list: PublicEntryList): z.input<typeof entryListSchema> {
  return {
    release: { name: list.release.name, version: list.release.version },
    entries: list.entries.map((entry) => ({
      id: entry.id,
      system: entry.system,
      team: entry.team,
      track: entry.track,
      split: entry.split,
      baseline: entry.isBaseline,
      n: entry.n,
      primary: entry.primary,
      unified: entry.unified,
      stale: entry.isStale,
      date: entry.date,
      url: `/entries/${entry.id}`,
    })),
  };
}
