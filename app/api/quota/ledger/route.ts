import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import type { QuotaLedgerBody } from "@/lib/core/api-schemas/submissions";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { route } from "@/lib/web/http/route";
import { getActiveRelease } from "@/lib/domain/releases/get-release";
import { listQuotaLedger } from "@/lib/domain/quotas/list-quota-ledger";

export const dynamic = "force-dynamic";

/** Which release's rows: the active one by default, `all` for every release, or one by id. */
async function releaseIdOf(release: string | undefined): Promise<string | null> {
  if (release === undefined) return (await getActiveRelease()).id;
  if (release === "all") return null;
  const found = await db.datasetRelease.findUnique({ where: { id: release }, select: { id: true } });
  if (!found) throw new AppError("not_found", `release: no release has the id ${release} (use a release id or all).`);
  return found.id;
}

/** GET /api/quota/ledger — the caller's own charges, refunds and grants of test quota, a page at a time. */
export const GET = route(SUBMISSION_API.getQuotaLedger.input, async ({ actor, query }) => {
  const releaseId = await releaseIdOf(query.release);
  const page = await listQuotaLedger(actor.userId, { releaseId, before: query.before });
  return {
    releaseId,
    hasMore: page.hasMore,
    nextBefore: page.nextBefore,
    entries: page.entries.map((entry) => ({
      id: entry.id,
      releaseId: entry.releaseId,
      releaseName: entry.releaseName,
      kind: entry.kind,
      amount: entry.amount,
      createdAt: entry.createdAt.toISOString(),
      countsInWindowFrom: entry.windowAt.toISOString(),
      submissionId: entry.submissionId,
      submissionName: entry.submissionName,
      reason: entry.reason,
      madeBy: entry.madeBy,
    })),
  } satisfies QuotaLedgerBody;
});
