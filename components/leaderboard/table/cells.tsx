"use client";

import { TierBadge } from "@/components/provenance/tier-badge";
import Link from "next/link";
import { createContext, useContext, type KeyboardEvent } from "react";
import { reportedPaperHref } from "@/lib/core/dataset/paper";
import { type EntityType } from "@/lib/core/dataset/release-schema";
import { formatParameterCount, formatRankInterval, formatSuppressedGroup, isWholePointGroup } from "@/lib/core/format/numbers";
import { formatPBucket } from "@/lib/core/format/p-values";
import type { LeaderboardRow } from "@/lib/core/leaderboard/leaderboard-types";
import { describeRank, describeSignificance } from "@/lib/core/leaderboard/describe-verdict";
import { Badge } from "../estimate-text";
import type { RowLinks } from "./props";

/** The leaderboard's cells, shared by the table and the phone cards: rank, system, the mark, a hidden group. */

/** Sorting by the mark: significantly better first. */
export const SIGNIFICANCE_ORDER = { better: 0, "no significant difference": 1, worse: 2 } as const;

/** The mark against the best baseline with its p on the page (section 13's test of the pair). */
export function SignificanceCell({ row }: { row: LeaderboardRow }) {
  const mark = row.significance;
  if (mark === null) {
    return <span className="text-muted">–</span>;
  }
  const description = describeSignificance(mark);
  const isBetter = mark.verdict === "better";
  const isWorse = mark.verdict === "worse";
  const symbol = isBetter ? "▲" : isWorse ? "▼" : "·";
  const tone = isBetter ? "font-bold text-green-800" : isWorse ? "font-bold text-red-800" : "text-muted";
  return (
    <span className={`whitespace-nowrap ${tone}`} data-testid="mark" data-mark={isBetter ? "better" : isWorse ? "worse" : "none"} title={description}>
      <span aria-hidden="true">{symbol}</span> <span className="text-xs font-normal">{formatPBucket(mark.pBucket)}</span>
      <span className="sr-only">{description}</span>
    </span>
  );
}

/** Escape closes an open disclosure popover (rank reason, column picker) and puts focus back on its summary. */
export function closeOnEscape(event: KeyboardEvent<HTMLDetailsElement>) {
  const details = event.currentTarget;
  if (event.key !== "Escape" || !details.open) return;
  event.preventDefault();
  details.open = false;
  details.querySelector("summary")?.focus();
}

/** The rank, with its reason one tap away (a disclosure widget, not a tooltip). */
export function RankCell({ row }: { row: LeaderboardRow }) {
  if (row.rank === null) return <Missing />;
  const rankHi = row.rankHi ?? row.rank;
  const interval = formatRankInterval(row.rank, rankHi);
  if (row.rankReason === null) return <span>{interval}</span>;
  return (
    <details data-testid="rank" data-rank={row.rank} data-rank-hi={rankHi} className="relative" onKeyDown={closeOnEscape}>
      <summary className="cursor-pointer font-semibold whitespace-nowrap">{interval}</summary>
      <p className="absolute left-0 z-30 mt-1 w-64 rounded border border-line bg-white p-2 text-xs font-normal whitespace-normal text-ink shadow" data-testid="rank-reason">
        {describeRank(row.rank, rankHi, row.rankReason)}
      </p>
    </details>
  );
}

/** A row's paper and code links from its fact sheet (lib/domain/leaderboard/find-entry-links.ts), by entry id. */

export const RowLinksContext = createContext<RowLinks>({});

/** "paper · code" under a system's name: the fact sheet's links, or a reported row's paper. */
function RowLinkLine({ row }: { row: LeaderboardRow }) {
  const links = useContext(RowLinksContext);
  const own = row.entryId === null ? undefined : links[row.entryId];
  const paper = row.kind === "reported" ? reportedPaperHref(row.source) : (own?.paper ?? null);
  const code = row.kind === "reported" ? null : (own?.code ?? null);
  if (paper === null && code === null) return null;
  const external = { rel: "noopener noreferrer nofollow" };
  return (
    <div className="text-xs" data-testid="row-links">
      {paper !== null && (
        <a href={paper} {...(paper.startsWith("/") ? {} : external)} aria-label={`Paper of ${row.system}`}>
          paper
        </a>
      )}
      {paper !== null && code !== null && " · "}
      {code !== null && (
        <a href={code} {...external} aria-label={`Code of ${row.system}`}>
          code
        </a>
      )}
    </div>
  );
}

export function SystemCell({ row }: { row: LeaderboardRow }) {
  return (
    <div className="min-w-40">
      {row.entryId ? <Link href={`/entries/${row.entryId}`}>{row.system}</Link> : <span>{row.system}</span>}
      {row.kind === "baseline" && <Badge tone="baseline">baseline</Badge>}
      {row.kind !== "reported" && <TierBadge tier={row.tier} />}
      {row.kind === "reported" && (
        <Badge tone="reported" title={`Reported in a paper (${row.source ?? "source unknown"}), on the whole test split: no interval, no rank, no significance test`}>
          reported
        </Badge>
      )}
      {row.isStale && (
        <Badge tone="stale" title="Scored with an older scorer version or gold; it will be re-scored">
          stale
        </Badge>
      )}
      <div className="text-xs text-muted">{row.kind === "reported" ? `${row.source ?? "a paper"} · whole test split, not the ranking slice` : row.team}</div>
      <RowLinkLine row={row} />
      {row.kind !== "reported" && <div className="text-xs text-muted" data-testid="entry-details">{describeEntryDetails(row)}</div>}
    </div>
  );
}

/** "8B params · open weights · 2026-12-01": the secondary facts of an entry, always visible beside its name. */
export function describeEntryDetails(row: Pick<LeaderboardRow, "parameterCount" | "isOpenWeights" | "date">): string {
  const parts = [
    row.parameterCount === null ? "size not stated" : `${formatParameterCount(row.parameterCount)} params`,
    row.isOpenWeights === null ? "weights not stated" : row.isOpenWeights ? "open weights" : "closed weights",
  ];
  if (row.date) parts.push(row.date);
  return parts.join(" · ");
}

export function Missing() {
  return <span className="text-muted">–</span>;
}

/** A group whose numbers the public report does not show says why, in the cell (section 12). */
export function SuppressedGroup({ n, minGroupN }: { n: number | null; minGroupN: number }) {
  const text = n === 0 ? "no samples" : formatSuppressedGroup(n, minGroupN);
  return (
    <span className="text-xs whitespace-nowrap text-muted" data-testid="suppressed-cell">
      {text}
    </span>
  );
}

/** In a type view, an entry with no number in any column is one whose type group is not shown. */
export function isTypeRowHidden(row: LeaderboardRow, type: EntityType | null): boolean {
  return type !== null && row.kind !== "reported" && Object.values(row.metrics).every((estimate) => estimate === null || estimate === undefined);
}

/** A row's value in a type view is its type group's: whole points in a small group (section 12), never a paper's. */
export function isWholePointRow(row: LeaderboardRow, type: EntityType | null, coarseBelowN: number | null): boolean {
  return type !== null && row.kind !== "reported" && isWholePointGroup(row.n, coarseBelowN);
}

/** Rank and system stay in view when the table scrolls sideways (opaque, so scrolled cells pass under them). */
export const STICKY_CLASS: Partial<Record<string, string>> = {
  // An open rank popover lifts its cell above the sticky System column and the rows below it.
  rank: "sticky left-0 z-20 w-14 min-w-14 max-w-14 has-[details[open]]:z-40",
  system: "sticky left-14 z-20 shadow-[1px_0_0_var(--color-line)]",
};

export function rowBackground(kind: LeaderboardRow["kind"]): string {
  return kind === "baseline" ? "bg-amber-50" : kind === "reported" ? "bg-slate-50" : "bg-white";
}
