import "server-only";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { QuotaEntryKind } from "@/lib/platform/generated/prisma";

export type QuotaLedgerEntryView = {
  id: string;
  kind: QuotaEntryKind;
  amount: number;
  /** Which charge of its submission the row is (0 the upload's; 1, 2, ... a re-charge after a maintainer's retry). */
  round: number;
  createdAt: Date;
  windowAt: Date;
  releaseId: string;
  /** "irc-bench 1.0": the release whose budget the row is part of. */
  releaseName: string;
  submissionId: string | null;
  submissionName: string | null;
  reason: string | null;
  /** Who made the row: the owner's upload (a charge), the platform (an automatic refund) or a maintainer. */
  madeBy: "upload" | "platform" | "maintainer";
};

type QuotaLedgerPage = {
  entries: QuotaLedgerEntryView[];
  /** More (older) rows exist than this page shows: ask again with `before` set to `nextBefore`. */
  hasMore: boolean;
  /** The id of this page's last (oldest) row when there are more; null otherwise. */
  nextBefore: string | null;
};

/** How many rows one page or API answer shows at most; a budget is 50 by default, so one release usually fits. */
const LEDGER_PAGE_SIZE = 500;

type ListQuotaLedgerOptions = {
  /** One release's rows, or null for every release's. */
  releaseId: string | null;
  /** Only rows older than this row of the same account (the previous page's nextBefore). */
  before?: string;
  pageSize?: number;
};

function madeByOf(kind: QuotaEntryKind, actorId: string | null): QuotaLedgerEntryView["madeBy"] {
  if (actorId !== null) return "maintainer";
  return kind === "CHARGE" ? "upload" : "platform";
}

/**
 * One account's quota ledger, newest first, on one release or on all of them
 * (each row names its release), a page at a time: only that account's own
 * rows (an address budget is shared, but other accounts' rows stay theirs).
 * The maintainer who made a row is not named to the participant.
 */
export async function listQuotaLedger(userId: string, options: ListQuotaLedgerOptions): Promise<QuotaLedgerPage> {
  const pageSize = options.pageSize ?? LEDGER_PAGE_SIZE;
  if (options.before !== undefined) {
    const anchor = await db.quotaLedgerEntry.findFirst({ where: { id: options.before, userId }, select: { id: true } });
    if (!anchor) throw new AppError("validation", `before: ${options.before} is not a row of this quota ledger (use the nextBefore of the previous page).`);
  }
  const rows = await db.quotaLedgerEntry.findMany({
    where: { userId, ...(options.releaseId === null ? {} : { releaseId: options.releaseId }) },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    ...(options.before === undefined ? {} : { cursor: { id: options.before }, skip: 1 }),
    take: pageSize + 1,
    select: {
      id: true,
      kind: true,
      amount: true,
      round: true,
      createdAt: true,
      windowAt: true,
      releaseId: true,
      release: { select: { name: true, version: true } },
      submissionId: true,
      reason: true,
      actorId: true,
      submission: { select: { originalName: true } },
    },
  });
  const hasMore = rows.length > pageSize;
  const shown = rows.slice(0, pageSize);
  return {
    entries: shown.map((row) => ({
      id: row.id,
      kind: row.kind,
      amount: row.amount,
      round: row.round,
      createdAt: row.createdAt,
      windowAt: row.windowAt,
      releaseId: row.releaseId,
      releaseName: `${row.release.name} ${row.release.version}`,
      submissionId: row.submissionId,
      submissionName: row.submission?.originalName ?? null,
      reason: row.reason,
      madeBy: madeByOf(row.kind, row.actorId),
    })),
    hasMore,
    nextBefore: hasMore ? (shown.at(-1)?.id ?? null) : null,
  };
}
