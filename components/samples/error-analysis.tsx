import Link from "next/link";
import { ErrorClassChart } from "@/components/charts/error-class-chart";
import { formatPercent } from "@/lib/core/format/numbers";
import { ENTITY_TYPES } from "@/lib/core/dataset/release-schema";
import { ANSWER_TYPE_COLUMNS, ERROR_CLASS_LABELS, type ErrorClass } from "@/lib/core/scoring/error-taxonomy";
import type { ErrorAnalysis } from "@/lib/core/submissions/sample-schemas";
import { TableShell } from "@/components/ui/table-shell";

const labelOf = (name: string) => ERROR_CLASS_LABELS[name as ErrorClass] ?? name;

/**
 * A submission's error classes: counts with a chart, per entity type, and the
 * type-confusion matrix (dev); on test the overall shares only: on the ranking
 * slice for a published entry's owner, on the whole split for a maintainer
 * (protocol section 12). `browseHref` links a class (and
 * type) to the instance browser filtered to it; absent on test.
 */
// eslint-disable-next-line max-lines-per-function -- the error analysis' sections in page order; to split by section (issue 33 follow-up)
export function ErrorAnalysisSection({ analysis, browseHref }: { analysis: ErrorAnalysis; browseHref?: (filters: { class?: string; type?: string }) => string }) {
  if (analysis.kind === "test") {
    return (
      <section aria-labelledby="error-classes-heading" className="space-y-3">
        <h2 id="error-classes-heading" className="text-xl font-semibold">
          Error classes
        </h2>
        <p className="text-sm text-muted">
          {analysis.slice === "ranking"
            ? `Shares of the ${analysis.n} samples of the ranking slice (the test samples the leaderboard ranks by), rounded to 0.1 point.`
            : `Shares of the ${analysis.n} samples of the whole test split (a maintainer's view; the entry's owner sees the ranking slice's).`}{" "}
          The test split shows nothing per sample or per type (protocol section 12).
        </p>
        <table className="bg-white text-sm" aria-label="Error class shares">
          <thead className="border-b border-line">
            <tr>
              <th scope="col">Class</th>
              <th scope="col" className="text-right">
                Share (%)
              </th>
            </tr>
          </thead>
          <tbody>
            {analysis.classes.map((name) => (
              <tr key={name} className="border-b border-line">
                <th scope="row">{labelOf(name)}</th>
                <td className="text-right">{formatPercent(analysis.shares[name] ?? 0)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    );
  }
  const types = ENTITY_TYPES.filter((type) => (analysis.byType[type]?.n ?? 0) > 0);
  const bars = analysis.classes.map((name) => ({ label: labelOf(name), count: analysis.counts[name] ?? 0 }));
  return (
    <section aria-labelledby="error-classes-heading" className="space-y-4">
      <h2 id="error-classes-heading" className="text-xl font-semibold">
        Error classes
      </h2>
      <p className="text-sm text-muted">
        Why each answer of the {analysis.n} dev samples is right or wrong ({analysis.track === "open" ? "open" : "closed"}-world classes; the rules are in docs/scoring.md).
        Pick a number to see its samples.
      </p>
      <ErrorClassChart bars={bars} title="Samples per error class" />
      <table className="bg-white text-sm" aria-label="Samples per error class" data-testid="error-class-counts">
        <thead className="border-b border-line">
          <tr>
            <th scope="col">Class</th>
            <th scope="col" className="text-right">
              Samples
            </th>
            <th scope="col" className="text-right">
              Share (%)
            </th>
          </tr>
        </thead>
        <tbody>
          {analysis.classes.map((name) => {
            const count = analysis.counts[name] ?? 0;
            return (
              <tr key={name} className="border-b border-line">
                <th scope="row">{labelOf(name)}</th>
                <td className="text-right">{browseHref && count > 0 ? <Link href={browseHref({ class: name })}>{count}</Link> : count}</td>
                <td className="text-right">{formatPercent(analysis.n === 0 ? 0 : count / analysis.n)}</td>
              </tr>
            );
          })}
        </tbody>
      </table>

      {/* Phones: one card per type instead of a table as wide as the classes. */}
      <div className="space-y-2 sm:hidden" data-testid="error-type-cards">
        <h3 className="font-semibold">Per entity type (gold)</h3>
        <ul className="space-y-2">
          {types.map((type) => {
            const group = analysis.byType[type]!;
            return (
              <li key={type} className="rounded border border-line bg-white p-3 text-sm" data-testid="error-type-card">
                <p className="font-semibold">
                  {type} <span className="font-normal text-muted">· n = {group.n}</span>
                </p>
                <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-4">
                  {analysis.classes.map((name) => {
                    const count = group.counts[name] ?? 0;
                    return (
                      <div key={name} className="contents">
                        <dt>{labelOf(name)}</dt>
                        <dd className="text-right">{browseHref && count > 0 ? <Link href={browseHref({ class: name, type })}>{count}</Link> : count}</dd>
                      </div>
                    );
                  })}
                </dl>
              </li>
            );
          })}
        </ul>
      </div>

      <TableShell
        caption="Per entity type (gold)"
        label="Error classes per entity type"
        scrollClassName="hidden overflow-x-auto sm:block"
        tableClassName="bg-white text-sm"
        captionClassName="mb-1 text-left font-semibold"
        head={
          <>
            <th scope="col">Type</th>
            <th scope="col" className="text-right">
              n
            </th>
            {analysis.classes.map((name) => (
              <th key={name} scope="col" className="text-right">
                {labelOf(name)}
              </th>
            ))}
          </>
        }
      >
        {types.map((type) => {
          const group = analysis.byType[type]!;
          return (
            <tr key={type} className="border-b border-line">
              <th scope="row">{type}</th>
              <td className="text-right">{group.n}</td>
              {analysis.classes.map((name) => {
                const count = group.counts[name] ?? 0;
                return (
                  <td key={name} className="text-right">
                    {browseHref && count > 0 ? <Link href={browseHref({ class: name, type })}>{count}</Link> : count}
                  </td>
                );
              })}
            </tr>
          );
        })}
      </TableShell>

      <div className="space-y-2 sm:hidden" data-testid="confusion-cards">
        <h3 className="font-semibold">Type confusion: what type of entity the answers name, per gold type</h3>
        <ul className="space-y-2">
          {types.map((type) => (
            <li key={type} className="rounded border border-line bg-white p-3 text-sm">
              <p className="font-semibold">Gold {type}</p>
              <dl className="mt-1 grid grid-cols-[1fr_auto] gap-x-4">
                {ANSWER_TYPE_COLUMNS.map((column) => {
                  const count = analysis.confusion[type]?.[column] ?? 0;
                  return (
                    <div key={column} className={`contents ${column === type && count > 0 ? "font-semibold" : ""} ${count === 0 ? "text-muted" : ""}`}>
                      <dt>answer {column}</dt>
                      <dd className="text-right">{count}</dd>
                    </div>
                  );
                })}
              </dl>
            </li>
          ))}
        </ul>
      </div>

      <TableShell
        caption={
          <>
            Type confusion: gold type (rows) × type of the entity the answer names (columns; “none”: no KB entity)
          </>
        }
        label="Type confusion"
        scrollClassName="hidden overflow-x-auto sm:block"
        tableClassName="bg-white text-sm"
        captionClassName="mb-1 text-left font-semibold"
        head={
          <>
            <th scope="col">Gold \ answer</th>
            {ANSWER_TYPE_COLUMNS.map((column) => (
              <th key={column} scope="col" className="text-right">
                {column}
              </th>
            ))}
          </>
        }
      >
        {types.map((type) => (
          <tr key={type} className="border-b border-line">
            <th scope="row">{type}</th>
            {ANSWER_TYPE_COLUMNS.map((column) => {
              const count = analysis.confusion[type]?.[column] ?? 0;
              return (
                <td key={column} className={`text-right ${column === type && count > 0 ? "font-semibold" : ""} ${count === 0 ? "text-muted" : ""}`}>
                  {count}
                </td>
              );
            })}
          </tr>
        ))}
      </TableShell>
    </section>
  );
}
