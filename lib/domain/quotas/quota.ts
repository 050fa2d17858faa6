import "server-only";
import { DAY_MS } from "@/lib/core/time";
import { z } from "zod";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { AppError } from "@/lib/core/errors";
import { formatDateTime } from "@/lib/core/format/dates";
import { Prisma } from "@/lib/platform/generated/prisma";
import { isApprovedUser } from "@/lib/domain/accounts/test-approval";


type TestQuota = {
  /** TEST_QUOTA_PER_DAY plus what maintainers granted in the last 24 hours. */
  perDay: number;
  /** TEST_QUOTA_TOTAL plus everything maintainers granted on the release. */
  total: number;
  /** Charges of the last 24 hours that were not refunded. */
  usedToday: number;
  usedTotal: number;
  remaining: number;
  /** Extra test submissions maintainers granted on this release (already in perDay's window and total). */
  granted: number;
  /** When the oldest unrefunded charge of the last 24 hours leaves the window (null when none). */
  nextFreeAt: Date | null;
};

/** Whose budget: the account's own, or the client address's (shared by every account that uploads from it). */
type QuotaScope = { kind: "account"; userId: string } | { kind: "address"; clientAddress: string; userId: string };

const usageRowSchema = z.object({
  usedTotal: z.coerce.number().int(),
  usedToday: z.coerce.number().int(),
  grantedTotal: z.coerce.number().int(),
  grantedToday: z.coerce.number().int(),
  oldestCharge: z.date().nullable(),
});

/**
 * Which ledger rows a scope sums. An address sums the charges (and their
 * refunds) made from it by any account, plus the uploading account's own
 * grants: a maintainer who grants a participant more test submissions means
 * them to be usable from wherever that participant uploads.
 */
function scopeFilter(scope: QuotaScope): Prisma.Sql {
  if (scope.kind === "account") return Prisma.sql`e."userId" = ${scope.userId}`;
  return Prisma.sql`(e."clientAddress" = ${scope.clientAddress} AND e."kind" <> 'GRANT') OR (e."userId" = ${scope.userId} AND e."kind" = 'GRANT')`;
}

/**
 * The test-phase budget of one scope on a release, summed from the quota
 * ledger (QuotaLedgerEntry), its one source of truth: a rolling 24-hour window
 * and a total. A charge is made when a test file passes pre-flight; a refund
 * (a platform failure, or a maintainer) cancels that charge in the window and
 * in the total; a grant raises both allowances.
 */
async function getQuota(scope: QuotaScope, releaseId: string, now: Date = new Date(), client: Prisma.TransactionClient = db): Promise<TestQuota> {
  const env = getEnv();
  const since = new Date(now.getTime() - DAY_MS);
  const rows = await client.$queryRaw<unknown[]>`
    SELECT
      COALESCE(SUM(e."amount") FILTER (WHERE e."kind" <> 'GRANT'), 0) AS "usedTotal",
      COALESCE(SUM(e."amount") FILTER (WHERE e."kind" <> 'GRANT' AND e."windowAt" > ${since}), 0) AS "usedToday",
      COALESCE(-SUM(e."amount") FILTER (WHERE e."kind" = 'GRANT'), 0) AS "grantedTotal",
      COALESCE(-SUM(e."amount") FILTER (WHERE e."kind" = 'GRANT' AND e."windowAt" > ${since}), 0) AS "grantedToday",
      MIN(e."windowAt") FILTER (
        WHERE e."kind" = 'CHARGE' AND e."windowAt" > ${since}
          AND NOT EXISTS (SELECT 1 FROM "QuotaLedgerEntry" r WHERE r."submissionId" = e."submissionId" AND r."kind" = 'REFUND' AND r."round" = e."round")
      ) AS "oldestCharge"
    FROM "QuotaLedgerEntry" e
    WHERE e."releaseId" = ${releaseId} AND (${scopeFilter(scope)})`;
  const usage = usageRowSchema.parse(rows[0]);
  const perDay = env.TEST_QUOTA_PER_DAY + usage.grantedToday;
  const total = env.TEST_QUOTA_TOTAL + usage.grantedTotal;
  const usedToday = Math.max(0, usage.usedToday);
  const usedTotal = Math.max(0, usage.usedTotal);
  return {
    perDay,
    total,
    usedToday,
    usedTotal,
    remaining: Math.max(0, Math.min(perDay - usedToday, total - usedTotal)),
    granted: usage.grantedTotal,
    nextFreeAt: usage.oldestCharge ? new Date(usage.oldestCharge.getTime() + DAY_MS) : null,
  };
}

/** The account's own test budget on a release (what /submit and GET /api/quota show). */
export function getTestQuota(userId: string, releaseId: string, now: Date = new Date(), client: Prisma.TransactionClient = db): Promise<TestQuota> {
  return getQuota({ kind: "account", userId }, releaseId, now, client);
}

const ADDRESS_NOTE = "(shared by every account that uploads from it)";

/** Throws the 429 "quota" error that says whose budget is spent (the account's or the address's) and when one frees. */
function assertQuotaLeft(quota: TestQuota, now: Date = new Date(), scope: QuotaScope["kind"] = "account"): void {
  if (quota.remaining > 0) return;
  const isAddress = scope === "address";
  if (quota.usedTotal >= quota.total) {
    throw new AppError(
      "quota",
      isAddress
        ? `This network address has used all ${quota.total} test submissions for this release ${ADDRESS_NOTE}. Dev submissions cost no quota.`
        : `You have used all ${quota.total} test submissions for this release. Dev submissions cost no quota.`,
    );
  }
  const waitSeconds = quota.nextFreeAt ? Math.max(1, Math.ceil((quota.nextFreeAt.getTime() - now.getTime()) / 1000)) : 3600;
  const when = quota.nextFreeAt ? formatDateTime(quota.nextFreeAt) : "a later time";
  throw new AppError(
    "quota",
    isAddress
      ? `This network address has used its ${quota.perDay} test submissions of the last 24 hours ${ADDRESS_NOTE}. The next one is available at ${when}. Dev submissions cost no quota.`
      : `You have used your ${quota.perDay} test submissions of the last 24 hours. The next one is available at ${when}. Dev submissions cost no quota.`,
    { retryAfterSeconds: waitSeconds },
  );
}

/**
 * Refuses a test upload when the account, or for an unapproved account its client address, has no test
 * submission left (protocol v1.3 §12: the address binds unapproved accounts only; approved accounts behind
 * one address, a lab, each keep their own quota, as a maintainer vouched for each identity). The account is
 * checked first, so a participant who spent their own budget reads about it. The address budget still counts
 * every charge made from it, approved or not. Without an address (an operator's command on the server) only
 * the account binds.
 */
export async function assertTestQuotaLeft(
  options: { userId: string; releaseId: string; clientAddress: string | null },
  client: Prisma.TransactionClient,
  now: Date = new Date(),
): Promise<void> {
  assertQuotaLeft(await getTestQuota(options.userId, options.releaseId, now, client), now, "account");
  if (options.clientAddress === null) return;
  const user = await client.user.findUnique({ where: { id: options.userId }, select: { role: true, isSystem: true, approvedAt: true } });
  if (user !== null && isApprovedUser(user)) return;
  const scope: QuotaScope = { kind: "address", clientAddress: options.clientAddress, userId: options.userId };
  assertQuotaLeft(await getQuota(scope, options.releaseId, now, client), now, "address");
}
