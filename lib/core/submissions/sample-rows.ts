import type { EntityType } from "@/lib/core/dataset/release-schema";
import { toCsv, type CsvCell } from "@/lib/core/format/csv";
import { answerTypeOfCode, errorClassOfCode, ERROR_CLASS_LABELS } from "@/lib/core/scoring/error-taxonomy";
import type { SampleChange } from "@/lib/core/scoring/compare-runs";
import { norm } from "@/lib/core/scoring/normalize";
import { isAliasHitAt1Code, rankOfCode, tierOfCode } from "@/lib/core/scoring/outcome-codes";
import type { Track } from "@/lib/core/scoring/tracks";
import type { SampleAnswer, SampleQuery, SampleRow, SampleSortKey, TierOrRankBucket } from "./sample-schemas";

/**
 * The instance browser's rows: built from the stored per-sample outcomes,
 * classes and answers of a dev run (never from its file), then filtered,
 * searched, sorted and cut into pages. Pure.
 */

export type KbEntity = { qid: string; name: string; type: EntityType };

export type DevSample = {
  /** Position in gold order (the index into stored outcomes). */
  index: number;
  id: string;
  collection: string;
  narrative: string;
  gold: { qid: string; name: string; type: EntityType; aliases: string[]; description: string };
  /** norm() of the narrative and the gold name, for the text search. */
  searchText: string;
};

/** One run's stored per-sample data, decoded once. */
type StoredRun = {
  submissionId: string;
  track: Track;
  outcomes: Uint8Array;
  classes: Uint8Array;
  answerTypes: Uint8Array;
  /** Open: predictions; closed: top-5 QIDs. In gold order. */
  answers: readonly string[] | readonly (readonly string[])[];
};

/** A run with its answers resolved against the KB, ready to show and search. */
export type PreparedRun = StoredRun & { answerAt: (index: number) => SampleAnswer; answerSearchText: readonly string[] };

export function prepareRun(run: StoredRun, kb: ReadonlyMap<string, KbEntity>): PreparedRun {
  const topOf = (index: number): KbEntity[] => {
    const qids = (run.answers[index] ?? []) as readonly string[];
    return qids.map((qid) => kb.get(qid) ?? { qid, name: qid, type: "Other" as const });
  };
  const answerAt = (index: number): SampleAnswer => {
    const code = run.outcomes[index] ?? 0;
    const isOpen = run.track === "open";
    const tier = isOpen ? tierOfCode(code) : null;
    const rank = isOpen ? null : rankOfCode(code) || null;
    return {
      prediction: isOpen ? String(run.answers[index] ?? "") : null,
      top: isOpen ? null : topOf(index),
      tier,
      rank,
      isAliasHitAt1: !isOpen && isAliasHitAt1Code(code),
      isRight: isOpen ? tier !== null && tier <= 2 : rank === 1,
      errorClass: errorClassOfCode(run.track, run.classes[index] ?? 0),
      answerType: answerTypeOfCode(run.answerTypes[index] ?? 0),
    };
  };
  const answerSearchText = run.answers.map((answer, index) =>
    run.track === "open" ? norm(String(answer)) : norm(topOf(index).map((entity) => `${entity.name} ${entity.qid}`).join("\n")),
  );
  return { ...run, answerAt, answerSearchText };
}

/** A rank's bucket (section 7) or a tier's (section 6). */
function bucketOf(answer: Pick<SampleAnswer, "tier" | "rank">, track: Track): TierOrRankBucket {
  if (track === "open") return answer.tier === null ? "none" : (String(answer.tier) as TierOrRankBucket);
  const rank = answer.rank;
  if (rank === null) return "none";
  if (rank === 1) return "1";
  if (rank <= 3) return "2-3";
  if (rank <= 5) return "4-5";
  if (rank <= 10) return "6-10";
  return "11-100";
}

type RowFilters = Pick<SampleQuery, "type" | "collection" | "bucket" | "class" | "outcome" | "q" | "sort" | "dir" | "change">;

type Candidate = { sample: DevSample; answer: SampleAnswer; change: SampleChange | null };

/** The indices (in gold order) of the samples that pass every filter, sorted as asked. */
export function selectSamples(
  samples: readonly DevSample[],
  run: PreparedRun,
  filters: RowFilters,
  changes: readonly SampleChange[] | null = null,
): number[] {
  const needle = filters.q === undefined ? "" : norm(filters.q);
  const candidates: Candidate[] = [];
  for (const sample of samples) {
    const change = changes === null ? null : (changes[sample.index] ?? "same");
    if (change !== null && !keepsChange(change, filters.change)) continue;
    if (filters.type !== undefined && sample.gold.type !== filters.type) continue;
    if (filters.collection !== undefined && sample.collection !== filters.collection) continue;
    const answer = run.answerAt(sample.index);
    if (filters.outcome !== "all" && answer.isRight !== (filters.outcome === "right")) continue;
    if (filters.class !== undefined && answer.errorClass !== filters.class) continue;
    if (filters.bucket !== undefined && bucketOf(answer, run.track) !== filters.bucket) continue;
    if (needle !== "" && !sample.searchText.includes(needle) && !(run.answerSearchText[sample.index] ?? "").includes(needle)) continue;
    candidates.push({ sample, answer, change });
  }
  const compare = comparatorOf(filters.sort, run.track);
  const direction = filters.dir === "desc" ? -1 : 1;
  candidates.sort((a, b) => direction * compare(a, b) || a.sample.index - b.sample.index);
  return candidates.map((candidate) => candidate.sample.index);
}

function keepsChange(change: SampleChange, filter: SampleQuery["change"]): boolean {
  if (filter === "all") return true;
  if (filter === "changed") return change !== "same";
  return change === filter;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Unranked and unmatched samples sort after every ranked or matched one (ascending). */
function outcomeKey(answer: SampleAnswer, track: Track): number {
  return (track === "open" ? answer.tier : answer.rank) ?? 1000;
}

function comparatorOf(key: SampleSortKey, track: Track): (a: Candidate, b: Candidate) => number {
  switch (key) {
    case "order":
      return (a, b) => a.sample.index - b.sample.index;
    case "id":
      return (a, b) => byText(a.sample.id, b.sample.id);
    case "type":
      return (a, b) => byText(a.sample.gold.type, b.sample.gold.type);
    case "collection":
      return (a, b) => byText(a.sample.collection, b.sample.collection);
    case "outcome":
      return (a, b) => outcomeKey(a.answer, track) - outcomeKey(b.answer, track);
    case "class":
      return (a, b) => byText(ERROR_CLASS_LABELS[a.answer.errorClass], ERROR_CLASS_LABELS[b.answer.errorClass]);
  }
}

export function rowAt(sample: DevSample, run: PreparedRun, other: { run: PreparedRun; changes: readonly SampleChange[] } | null): SampleRow {
  const row: SampleRow = {
    id: sample.id,
    collection: sample.collection,
    narrative: sample.narrative,
    gold: sample.gold,
    ...run.answerAt(sample.index),
  };
  if (other !== null) row.against = { ...other.run.answerAt(sample.index), change: other.changes[sample.index] ?? "same" };
  return row;
}

function answerText(answer: SampleAnswer): string {
  if (answer.top !== null) return answer.top.map((entity) => `${entity.qid} ${entity.name} (${entity.type})`).join("; ");
  return answer.prediction ?? "";
}

const CSV_COLUMNS = [
  { key: "id", label: "id" },
  { key: "collection", label: "collection" },
  { key: "gold_qid", label: "gold_qid" },
  { key: "gold_name", label: "gold_name" },
  { key: "gold_type", label: "gold_type" },
  { key: "gold_aliases", label: "gold_aliases" },
  { key: "gold_description", label: "gold_description" },
  { key: "answer", label: "answer" },
  { key: "answer_type", label: "answer_type" },
  { key: "tier", label: "tier" },
  { key: "rank", label: "rank" },
  { key: "is_right", label: "is_right" },
  { key: "error_class", label: "error_class" },
  { key: "narrative", label: "narrative" },
] as const;

const AGAINST_COLUMNS = [
  { key: "change", label: "change" },
  { key: "other_answer", label: "other_answer" },
  { key: "other_error_class", label: "other_error_class" },
  { key: "other_is_right", label: "other_is_right" },
] as const;

/** The filtered rows as CSV (RFC 4180), one line per row, aliases joined with " | ". */
export function rowsToCsv(rows: readonly SampleRow[], hasAgainst: boolean): string {
  const columns = hasAgainst ? [...CSV_COLUMNS, ...AGAINST_COLUMNS] : CSV_COLUMNS;
  const cells = rows.map((row): Record<string, CsvCell> => ({
    id: row.id,
    collection: row.collection,
    gold_qid: row.gold.qid,
    gold_name: row.gold.name,
    gold_type: row.gold.type,
    gold_aliases: row.gold.aliases.join(" | "),
    gold_description: row.gold.description,
    answer: answerText(row),
    answer_type: row.answerType,
    tier: row.tier,
    rank: row.rank,
    is_right: row.isRight,
    error_class: row.errorClass,
    narrative: row.narrative,
    change: row.against?.change,
    other_answer: row.against ? answerText(row.against) : undefined,
    other_error_class: row.against?.errorClass,
    other_is_right: row.against?.isRight,
  }));
  return toCsv(columns, cells);
}

/** The filtered rows as JSON Lines: each line is one row of the JSON API. */
export function rowsToJsonl(rows: readonly SampleRow[]): string {
  return rows.map((row) => `${JSON.stringify(row)}\n`).join("");
}
