import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { emptyLedgerCounts, ledgerTotals, sortLedgerRows, type LedgerColumn, type LedgerCounts, type LedgerRow } from "@/lib/core/integrity/disclosure-ledger";

/** One release name's ledger: each account's row that spent anything there, and the release's totals. */
export type DisclosureLedger = { releaseName: string; accounts: number; rows: LedgerRow[]; totals: LedgerCounts };

type LedgerQuery = {
  actor: Actor;
  /** One account's rows (its admin page): every release name it spent anything on. Omitted: every account. */
  userId?: string;
  /** One release name (a request's review). Omitted: every release name. */
  releaseName?: string;
  sort?: { by: LedgerColumn | "weight"; direction: "desc" | "asc" };
};

/**
 * Protocol §12's disclosure ledger, for maintainers: per account and release
 * name (all versions together), its test uploads (feedback queries), its
 * publication requests (accepted by the guard, refused, withdrawn), its
 * published and hidden entries and the near-copies the guard caught (requests
 * refused as too close), beside the release name's totals over every account.
 * Rows heaviest first (uploads plus requests) unless `sort` says otherwise.
 * Withdrawals are read from the audit log (one per withdrawal), refusals from
 * the request history (PublicationRefusal).
 */
export async function getDisclosureLedger(query: LedgerQuery): Promise<DisclosureLedger[]> {
  requireMaintainer(query.actor);
  const releases = await db.datasetRelease.findMany({ where: query.releaseName === undefined ? {} : { name: query.releaseName }, select: { id: true, name: true } });
  const nameOf = new Map(releases.map((release) => [release.id, release.name]));
  const submissions = await db.submission.findMany({
    where: { split: "test", isBaseline: false, releaseId: { in: [...nameOf.keys()] }, user: { isSystem: false } },
    select: {
      id: true,
      userId: true,
      releaseId: true,
      publication: true,
      requestedAt: true,
      refusals: { select: { reason: true } },
      user: { select: { displayName: true, email: true, budgetGroupId: true } },
    },
  });
  const withdrawals = await db.auditLog.groupBy({
    by: ["targetId"],
    where: { action: "submission.withdraw", targetType: "Submission", targetId: { in: submissions.map((submission) => submission.id) } },
    _count: { _all: true },
  });
  const withdrawnOf = new Map(withdrawals.map((entry) => [entry.targetId, entry._count._all]));

  const byRelease = new Map<string, Map<string, LedgerRow>>();
  for (const submission of submissions) {
    const releaseName = nameOf.get(submission.releaseId) ?? "";
    let rows = byRelease.get(releaseName);
    if (!rows) byRelease.set(releaseName, (rows = new Map()));
    let row = rows.get(submission.userId);
    if (!row) {
      row = { ...emptyLedgerCounts(), userId: submission.userId, ...submission.user };
      rows.set(submission.userId, row);
    }
    row.testUploads += 1;
    if (submission.publication !== "PRIVATE" || submission.requestedAt !== null) row.requestsAccepted += 1;
    row.requestsRefused += submission.refusals.length;
    row.nearCopies += submission.refusals.some((refusal) => refusal.reason === "TOO_CLOSE") ? 1 : 0;
    row.requestsWithdrawn += withdrawnOf.get(submission.id) ?? 0;
    if (submission.publication === "PUBLISHED") row.published += 1;
    if (submission.publication === "HIDDEN") row.hidden += 1;
  }
  const ledgers: DisclosureLedger[] = [];
  for (const [releaseName, rows] of [...byRelease].sort(([first], [second]) => first.localeCompare(second))) {
    const all = [...rows.values()];
    if (query.userId !== undefined && !rows.has(query.userId)) continue;
    const shown = query.userId === undefined ? all : all.filter((row) => row.userId === query.userId);
    ledgers.push({ releaseName, accounts: all.length, rows: sortLedgerRows(shown, query.sort?.by, query.sort?.direction), totals: ledgerTotals(all) });
  }
  return ledgers;
}
