import { describe, expect, it } from "vitest";
import { emptyLedgerCounts, ledgerTotals, ledgerWeight, sortLedgerRows, type LedgerRow } from "@/lib/core/integrity/disclosure-ledger";

const row = (userId: string, displayName: string, counts: Partial<LedgerRow>): LedgerRow => ({
  ...emptyLedgerCounts(),
  userId,
  displayName,
  email: `${userId}@example.org`,
  budgetGroupId: null,
  ...counts,
});

const rows = [
  row("u1", "Ada", { testUploads: 3, requestsAccepted: 1, published: 1 }),
  row("u2", "Bo", { testUploads: 10, requestsRefused: 2, nearCopies: 2 }),
  row("u3", "Cy", { testUploads: 4, requestsAccepted: 2, requestsWithdrawn: 1, hidden: 1 }),
  row("u4", "Di", { testUploads: 5, requestsAccepted: 2 }),
];

describe("the disclosure ledger (protocol §12)", () => {
  it("weight: uploads plus every request, accepted, refused or withdrawn", () => {
    expect(rows.map(ledgerWeight)).toEqual([4, 12, 7, 7]);
  });

  it("heaviest first by default, ties by name; any column either way", () => {
    expect(sortLedgerRows(rows).map((entry) => entry.displayName)).toEqual(["Bo", "Cy", "Di", "Ada"]);
    expect(sortLedgerRows(rows, "requestsAccepted").map((entry) => entry.displayName)).toEqual(["Cy", "Di", "Ada", "Bo"]);
    expect(sortLedgerRows(rows, "testUploads", "asc").map((entry) => entry.displayName)).toEqual(["Ada", "Cy", "Di", "Bo"]);
  });

  it("the release's totals sum every column", () => {
    expect(ledgerTotals(rows)).toEqual({ testUploads: 22, requestsAccepted: 5, requestsRefused: 2, requestsWithdrawn: 1, published: 1, hidden: 1, nearCopies: 2 });
  });
});
