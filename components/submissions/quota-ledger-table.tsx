import type { ReactNode } from "react";
import Link from "next/link";
import { formatDateTime } from "@/lib/core/format/dates";
import { formatCount } from "@/lib/core/format/numbers";
import type { QuotaLedgerEntryView } from "@/lib/domain/quotas/list-quota-ledger";
import { HIDDEN_CAPTION_CLASS, TableShell } from "@/components/ui/table-shell";

const KIND_LABELS: Record<QuotaLedgerEntryView["kind"], string> = { CHARGE: "Charge", REFUND: "Refund", GRANT: "Grant" };
const MADE_BY_LABELS: Record<QuotaLedgerEntryView["madeBy"], string> = {
  upload: "your upload",
  platform: "automatic",
  maintainer: "a maintainer",
};

/** "−1 (1 used)", "+1 back", "+3 extra": what the row did to the budget, in words. */
function describeAmount(entry: QuotaLedgerEntryView): string {
  if (entry.kind === "CHARGE") return `${formatCount(entry.amount)} used`;
  if (entry.kind === "REFUND") return `${formatCount(-entry.amount)} back`;
  return `${formatCount(-entry.amount)} extra`;
}

type QuotaLedgerTableProps = {
  entries: QuotaLedgerEntryView[];
  caption: string;
  /** Links to the submissions (the owner's and a maintainer's views have them). */
  hasSubmissionLinks?: boolean;
  /** A last column per row (the maintainer's refund button). */
  actionFor?: (entry: QuotaLedgerEntryView) => ReactNode;
  actionHeading?: string;
  /** A column naming each row's release (a ledger of every release). */
  hasReleaseColumn?: boolean;
  /** Where the next (older) page is when this one is cut off at the page size; null when it is the last. */
  olderHref?: string | null;
};

/** Every charge, refund and grant of one account's test quota, newest first. */
export function QuotaLedgerTable({ entries, caption, hasSubmissionLinks = true, actionFor, actionHeading = "Action", hasReleaseColumn = false, olderHref = null }: QuotaLedgerTableProps) {
  if (entries.length === 0) {
    return <p data-testid="quota-ledger-empty">Nothing charged, refunded or granted yet{hasReleaseColumn ? "" : " on this release"}.</p>;
  }
  return (
    <>
    <TableShell
      caption={caption}
      testId="quota-ledger"
      tableClassName="min-w-full border border-line bg-white text-sm"
      captionClassName={HIDDEN_CAPTION_CLASS}
      headClassName="bg-slate-50"
      head={
        <>
          <th scope="col">When</th>
          {hasReleaseColumn && <th scope="col">Release</th>}
          <th scope="col">What</th>
          <th scope="col">Test submissions</th>
          <th scope="col">Submission</th>
          <th scope="col">By</th>
          <th scope="col">Reason</th>
          {actionFor && <th scope="col">{actionHeading}</th>}
        </>
      }
    >
      {entries.map((entry) => (
        <tr key={entry.id} className="border-t border-line align-top" data-kind={entry.kind}>
          <td className="whitespace-nowrap">{formatDateTime(entry.createdAt)}</td>
          {hasReleaseColumn && <td className="whitespace-nowrap">{entry.releaseName}</td>}
          <th scope="row" className="font-medium">
            {KIND_LABELS[entry.kind]}
          </th>
          <td className="whitespace-nowrap">{describeAmount(entry)}</td>
          <td className="min-w-0 break-words">
            {entry.submissionId === null ? (
              <span className="text-muted">–</span>
            ) : hasSubmissionLinks ? (
              <Link href={`/submissions/${entry.submissionId}`}>{entry.submissionName ?? entry.submissionId}</Link>
            ) : (
              (entry.submissionName ?? entry.submissionId)
            )}
          </td>
          <td>{MADE_BY_LABELS[entry.madeBy]}</td>
          <td className="max-w-md break-words">{entry.reason ?? <span className="text-muted">–</span>}</td>
          {actionFor && <td>{actionFor(entry)}</td>}
        </tr>
      ))}
    </TableShell>
    {olderHref !== null && (
      <p data-testid="quota-ledger-more">
        These are the newest {formatCount(entries.length)} rows; there are older ones: <Link href={olderHref}>older rows</Link>.
      </p>
    )}
    </>
  );
}
