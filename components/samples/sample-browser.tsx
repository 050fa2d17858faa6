import Link from "next/link";
import type { ReactNode } from "react";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { ERROR_CLASS_LABELS, errorClassesOf } from "@/lib/core/scoring/error-taxonomy";
import { queryHref } from "@/lib/core/submissions/query-href";
import { bucketsOf, SAMPLE_PAGE_SIZES, type SampleAnswer, type SamplePage, type SampleQuery, type SampleRow } from "@/lib/core/submissions/sample-schemas";

const TIER_NAMES: Record<number, string> = { 1: "exact", 2: "alias", 3: "containment", 4: "jaccard" };
const SORT_LABELS = { order: "file order", id: "sample id", type: "gold type", collection: "collection", outcome: "tier / rank", class: "error class" } as const;
const CHANGE_LABELS = { changed: "fixed or broken", fixed: "fixed (now right)", broken: "broken (now wrong)", all: "all samples" } as const;

export type SampleBrowserProps = {
  page: SamplePage;
  query: SampleQuery;
  /** The page this browser is on, and parameters it always keeps (e.g. the two runs of a comparison). */
  path: string;
  keep?: Record<string, string>;
  /** The JSON API of the rows (exports add format=csv|jsonl). */
  apiPath: string;
  apiKeep?: Record<string, string>;
  collections: readonly string[];
  /** Labels of the runs' answers: "Answer" alone, or "New run" / "Old run" in a comparison. */
  answerLabel?: string;
  otherLabel?: string;
};

function outcomeText(answer: Pick<SampleAnswer, "tier" | "rank" | "isAliasHitAt1">, track: "open" | "closed"): string {
  if (track === "open") return answer.tier ? `tier ${answer.tier} · ${TIER_NAMES[answer.tier]}` : "no match";
  const rank = answer.rank ? `rank ${answer.rank}` : "not ranked";
  return answer.isAliasHitAt1 && answer.rank !== 1 ? `${rank} · alias hit@1` : rank;
}

function AnswerCell({ answer, goldQid }: { answer: SampleAnswer; goldQid: string }) {
  if (answer.top === null) {
    return (
      <>
        {answer.prediction ? <span className="font-medium">{answer.prediction}</span> : <em className="text-muted">(empty)</em>}
        {answer.answerType && <span className="block text-xs text-muted">names a KB {answer.answerType}</span>}
      </>
    );
  }
  return (
    <ol className="list-decimal pl-5">
      {answer.top.map((entity) => (
        <li key={entity.qid} className={entity.qid === goldQid ? "font-semibold text-emerald-800" : ""}>
          {entity.name} <span className="text-xs text-muted">({entity.type}, {entity.qid})</span>
        </li>
      ))}
    </ol>
  );
}

function ClassBadge({ answer }: { answer: SampleAnswer }) {
  return (
    <span className={`rounded px-1.5 py-0.5 text-xs ${answer.isRight ? "bg-emerald-100 text-emerald-900" : "bg-amber-100 text-amber-900"}`} data-testid="error-class">
      {ERROR_CLASS_LABELS[answer.errorClass]}
    </span>
  );
}

/** On phones each row is a card and each cell says what it is (the table's header is for wider screens). */
function CardLabel({ children }: { children: ReactNode }) {
  return <span className="block text-xs font-semibold text-muted sm:hidden">{children}</span>;
}

const CELL = "block sm:table-cell";

type RowLabels = { narrative: string; gold: string; answer: string; outcome: string; other: string };

function Row({ row, track, hasOther, labels }: { row: SampleRow; track: "open" | "closed"; hasOther: boolean; labels: RowLabels }) {
  return (
    <tr
      className="mb-3 block rounded border border-line bg-white p-1 align-top sm:mb-0 sm:table-row sm:rounded-none sm:border-0 sm:border-b sm:p-0"
      data-testid="sample-row"
      data-sample-id={row.id}
    >
      <th scope="row" className={`${CELL} font-mono text-xs sm:whitespace-nowrap`}>
        {row.id}
        <span className="block font-sans text-muted">{row.collection}</span>
        {row.against && (
          <span className={`mt-1 block font-sans font-semibold ${row.against.change === "fixed" ? "text-emerald-800" : row.against.change === "broken" ? "text-red-800" : ""}`}>
            {row.against.change}
          </span>
        )}
      </th>
      <td className={`${CELL} text-sm leading-relaxed sm:max-w-md sm:text-xs`} data-testid="narrative">
        <CardLabel>{labels.narrative}</CardLabel>
        {row.narrative}
      </td>
      <td className={`${CELL} sm:min-w-48`}>
        <CardLabel>{labels.gold}</CardLabel>
        <span className="font-semibold">{row.gold.name}</span>
        <span className="block text-xs text-muted">
          {row.gold.type} · {row.gold.qid}
        </span>
        {row.gold.aliases.length > 0 && <span className="block text-xs">also: {row.gold.aliases.join(", ")}</span>}
        {row.gold.description && <span className="block text-xs text-muted">{row.gold.description}</span>}
      </td>
      <td className={`${CELL} sm:min-w-48`} data-testid="answer">
        <CardLabel>{labels.answer}</CardLabel>
        <AnswerCell answer={row} goldQid={row.gold.qid} />
      </td>
      <td className={`${CELL} text-xs sm:whitespace-nowrap`}>
        <CardLabel>{labels.outcome}</CardLabel>
        {outcomeText(row, track)}
        <span className="mt-1 block">
          <ClassBadge answer={row} />
        </span>
      </td>
      {hasOther && row.against && (
        <td className={`${CELL} bg-slate-50 sm:min-w-48`} data-testid="other-answer">
          <CardLabel>{labels.other}</CardLabel>
          <AnswerCell answer={row.against} goldQid={row.gold.qid} />
          <span className="mt-1 block text-xs">
            {outcomeText(row.against, track)} · <ClassBadge answer={row.against} />
          </span>
        </td>
      )}
    </tr>
  );
}

function Select({ id, label, name, value, options }: { id: string; label: string; name: string; value: string; options: readonly { value: string; label: string }[] }) {
  return (
    <div className="flex flex-col">
      <label htmlFor={id} className="text-xs text-muted">
        {label}
      </label>
      <select id={id} name={name} defaultValue={value} className="rounded border border-line px-2 py-1">
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The instance browser: a GET form of filters (so every view is a link), the
 * rows of one page, paging, and CSV / JSON Lines exports of every filtered row.
 */
// eslint-disable-next-line max-lines-per-function -- the browser's filters, table and pager share one query state; to split (issue 33 follow-up)
export function SampleBrowser(props: SampleBrowserProps) {
  const { page, query, path, keep = {}, apiPath, apiKeep = {}, collections } = props;
  const track = page.track;
  const hasOther = page.against !== null;
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  const filters = { ...query, page: 1, format: "json" as const };
  const exportHref = (format: "csv" | "jsonl") => queryHref(apiPath, { ...filters, page: undefined, pageSize: undefined, format }, apiKeep);
  const any = { value: "", label: "any" };
  const labels: RowLabels = {
    narrative: "Narrative (entity elided)",
    gold: "Gold entity",
    answer: props.answerLabel ?? (track === "open" ? "Prediction" : "Top 5"),
    outcome: `${track === "open" ? "Tier" : "Gold rank"} · class`,
    other: props.otherLabel ?? "Other run",
  };
  return (
    <section aria-labelledby="browser-heading" className="space-y-3">
      <h2 id="browser-heading" className="text-xl font-semibold">
        Samples
      </h2>
      <form method="get" action={path} className="flex flex-wrap items-end gap-3 rounded border border-line bg-white p-3 text-sm" aria-label="Sample filters">
        {Object.entries(keep).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {hasOther && (
          <Select id="filter-change" label="Change" name="change" value={query.change} options={Object.entries(CHANGE_LABELS).map(([value, label]) => ({ value, label }))} />
        )}
        <Select id="filter-type" label="Entity type" name="type" value={query.type ?? ""} options={[any, ...ENTITY_TYPES.map((type) => ({ value: type, label: type }))]} />
        <Select id="filter-collection" label="Collection" name="collection" value={query.collection ?? ""} options={[any, ...collections.map((name) => ({ value: name, label: name }))]} />
        <Select
          id="filter-class"
          label="Error class"
          name="class"
          value={query.class ?? ""}
          options={[any, ...errorClassesOf(track).map((name) => ({ value: name, label: ERROR_CLASS_LABELS[name] }))]}
        />
        <Select
          id="filter-bucket"
          label={track === "open" ? "Tier" : "Gold rank"}
          name="bucket"
          value={query.bucket ?? ""}
          options={[any, ...bucketsOf(track).map((bucket) => ({ value: bucket, label: bucket === "none" ? (track === "open" ? "no match" : "not ranked") : bucket }))]}
        />
        <Select
          id="filter-outcome"
          label="Right / wrong"
          name="outcome"
          value={query.outcome}
          options={[
            { value: "all", label: "all" },
            { value: "right", label: track === "open" ? "right (alias tier or better)" : "right (hit@1)" },
            { value: "wrong", label: "wrong" },
          ]}
        />
        <div className="flex flex-col">
          <label htmlFor="filter-q" className="text-xs text-muted">
            Search narrative, answer, gold name
          </label>
          <input id="filter-q" type="search" name="q" defaultValue={query.q ?? ""} maxLength={200} className="rounded border border-line px-2 py-1" />
        </div>
        <Select id="filter-sort" label="Sort by" name="sort" value={query.sort} options={Object.entries(SORT_LABELS).map(([value, label]) => ({ value, label }))} />
        <Select
          id="filter-dir"
          label="Direction"
          name="dir"
          value={query.dir}
          options={[
            { value: "asc", label: "ascending" },
            { value: "desc", label: "descending" },
          ]}
        />
        <Select id="filter-page-size" label="Per page" name="pageSize" value={String(query.pageSize)} options={SAMPLE_PAGE_SIZES.map((size) => ({ value: String(size), label: String(size) }))} />
        <button type="submit" className="rounded bg-accent px-3 py-1.5 text-white">
          Apply
        </button>
        <Link href={queryHref(path, {}, keep)} className="py-1.5">
          Reset
        </Link>
      </form>
      <div className="flex flex-wrap items-center gap-3 text-sm">
        <span data-testid="sample-total">
          {page.total} {page.total === 1 ? "sample" : "samples"} · page {page.page} of {pages}
        </span>
        {page.page > 1 && <Link href={queryHref(path, { ...query, page: page.page - 1 }, keep)}>← Previous</Link>}
        {page.page < pages && <Link href={queryHref(path, { ...query, page: page.page + 1 }, keep)}>Next →</Link>}
        <span className="text-muted">Export the {page.total} filtered rows:</span>
        <a href={exportHref("csv")} download>
          CSV
        </a>
        <a href={exportHref("jsonl")} download>
          JSON Lines
        </a>
      </div>
      {page.rows.length === 0 ? (
        <p>No sample matches these filters.</p>
      ) : (
        <div tabIndex={0} className="sm:overflow-x-auto">
          <table className="block w-full text-sm sm:table sm:min-w-full sm:bg-white" data-testid="sample-browser">
            <caption className="sr-only">Samples matching the filters</caption>
            <thead className="hidden border-b border-line sm:table-header-group">
              <tr>
                <th scope="col">Sample</th>
                <th scope="col">{labels.narrative}</th>
                <th scope="col">{labels.gold}</th>
                <th scope="col">{labels.answer}</th>
                <th scope="col">{labels.outcome}</th>
                {hasOther && <th scope="col">{labels.other}</th>}
              </tr>
            </thead>
            <tbody className="block sm:table-row-group">
              {page.rows.map((row) => (
                <Row key={row.id} row={row} track={track} hasOther={hasOther} labels={labels} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
