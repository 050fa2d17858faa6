/**
 * Protocol §12's disclosure ledger: what one account has spent on a release
 * name (all versions), for maintainers. Pure: the counts in, the rows,
 * totals and orders out.
 */
export type LedgerCounts = {
  /** Test uploads (each a feedback query). */
  testUploads: number;
  /** Publication requests the guard let through (pending, published, hidden, rejected or withdrawn since). */
  requestsAccepted: number;
  /** Requests the guard refused (too close, or over the entries cap). */
  requestsRefused: number;
  /** Requests the owner withdrew. */
  requestsWithdrawn: number;
  published: number;
  hidden: number;
  /** Requests refused as too close to another file: the near-copies the guard caught. */
  nearCopies: number;
};

export type LedgerRow = LedgerCounts & { userId: string; displayName: string; email: string; budgetGroupId: string | null };

export const LEDGER_COLUMNS = ["testUploads", "requestsAccepted", "requestsRefused", "requestsWithdrawn", "published", "hidden", "nearCopies"] as const satisfies readonly (keyof LedgerCounts)[];
export type LedgerColumn = (typeof LEDGER_COLUMNS)[number];

export function emptyLedgerCounts(): LedgerCounts {
  return { testUploads: 0, requestsAccepted: 0, requestsRefused: 0, requestsWithdrawn: 0, published: 0, hidden: 0, nearCopies: 0 };
}

/** The release name's totals: every column summed over the accounts. */
export function ledgerTotals(rows: readonly LedgerCounts[]): LedgerCounts {
  const totals = emptyLedgerCounts();
  for (const row of rows) for (const column of LEDGER_COLUMNS) totals[column] += row[column];
  return totals;
}

/**
 * How heavy an account is: what it has read of the test split. Every upload is
 * a feedback query and every publication (requested, refused or withdrawn)
 * adds public numbers or a guard's answer.
 */
export function ledgerWeight(row: LedgerCounts): number {
  return row.testUploads + row.requestsAccepted + row.requestsRefused + row.requestsWithdrawn;
}

/** Rows by a column (or the weight), heaviest first; ties by display name, then id, so the order is stable. */
export function sortLedgerRows<Row extends LedgerRow>(rows: readonly Row[], by: LedgerColumn | "weight" = "weight", direction: "desc" | "asc" = "desc"): Row[] {
  const valueOf = (row: Row) => (by === "weight" ? ledgerWeight(row) : row[by]);
  const sign = direction === "desc" ? -1 : 1;
  return [...rows].sort((first, second) => {
    const difference = valueOf(first) - valueOf(second);
    if (difference !== 0) return sign * difference;
    return first.displayName.localeCompare(second.displayName) || (first.userId < second.userId ? -1 : first.userId > second.userId ? 1 : 0);
  });
}
