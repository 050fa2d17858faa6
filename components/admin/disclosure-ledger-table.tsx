import Link from "next/link";
import { TableShell } from "@/components/ui/table-shell";
import { formatCount } from "@/lib/core/format/numbers";
import { LEDGER_COLUMNS, ledgerWeight, type LedgerColumn, type LedgerCounts, type LedgerRow } from "@/lib/core/integrity/disclosure-ledger";

const HEADINGS: Record<LedgerColumn | "weight", string> = {
  weight: "Weight",
  testUploads: "Test uploads",
  requestsAccepted: "Requests accepted",
  requestsRefused: "Requests refused",
  requestsWithdrawn: "Requests withdrawn",
  published: "Published",
  hidden: "Hidden",
  nearCopies: "Near-copies",
};

export type LedgerSort = { by: LedgerColumn | "weight"; direction: "desc" | "asc" };

type DisclosureLedgerTableProps = {
  releaseName: string;
  accounts: number;
  rows: readonly LedgerRow[];
  totals: LedgerCounts;
  sort: LedgerSort;
  /** The page's address with `ledgerSort` set to the value given (server-rendered sort links: no script needed). */
  sortHref: (value: string) => string;
  /** The account the page is about (bold). */
  highlightUserId?: string;
};

/**
 * Protocol §12's disclosure ledger of one release name, for maintainers:
 * each account's row beside the release's totals over every account,
 * sortable by any column (heaviest first by default: uploads plus requests).
 */
export function DisclosureLedgerTable({ releaseName, accounts, rows, totals, sort, sortHref, highlightUserId }: DisclosureLedgerTableProps) {
  const columns = ["weight", ...LEDGER_COLUMNS] as const;
  return (
    <TableShell
      caption={`Disclosure ledger of ${releaseName} (all versions): ${formatCount(accounts)} ${accounts === 1 ? "account" : "accounts"} spent something there`}
      region={`Disclosure ledger of ${releaseName}`}
      testId="disclosure-ledger"
      head={
        <>
          <th scope="col" className="text-left">
            Account
          </th>
          {columns.map((column) => {
            const isSorted = sort.by === column;
            const next = isSorted && sort.direction === "desc" ? "asc" : "desc";
            return (
              <th key={column} scope="col" className="text-right" aria-sort={isSorted ? (sort.direction === "desc" ? "descending" : "ascending") : undefined}>
                <Link href={sortHref(`${column}.${next}`)}>
                  {HEADINGS[column]}
                  {isSorted ? (sort.direction === "desc" ? " ↓" : " ↑") : ""}
                </Link>
              </th>
            );
          })}
        </>
      }
    >
      {rows.map((row) => (
        <tr key={row.userId} className={`border-t border-line ${row.userId === highlightUserId ? "font-semibold" : ""}`} data-testid="ledger-row">
          <th scope="row" className="text-left font-normal">
            <Link href={`/admin/users/${encodeURIComponent(row.userId)}`}>{row.displayName}</Link>
            <span className="block text-xs text-muted">
              {row.email}
              {row.budgetGroupId !== null ? " · shares an entries budget" : ""}
            </span>
          </th>
          {columns.map((column) => (
            <td key={column} className="text-right tabular-nums">
              {formatCount(column === "weight" ? ledgerWeight(row) : row[column])}
            </td>
          ))}
        </tr>
      ))}
      <tr className="border-t-2 border-line" data-testid="ledger-totals">
        <th scope="row" className="text-left">
          Release total
        </th>
        {columns.map((column) => (
          <td key={column} className="text-right tabular-nums">
            {formatCount(column === "weight" ? ledgerWeight(totals) : totals[column])}
          </td>
        ))}
      </tr>
    </TableShell>
  );
}

/** `ledgerSort=column.direction` from the query; heaviest first when absent or unknown. */
export function parseLedgerSort(value: unknown): LedgerSort {
  const [by, direction] = typeof value === "string" ? value.split(".") : [];
  return { by: (["weight", ...LEDGER_COLUMNS] as const).find((column) => column === by) ?? "weight", direction: direction === "asc" ? "asc" : "desc" };
}
