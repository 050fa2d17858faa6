import { API } from "@/lib/api/operations";
import type { QuotaLedgerBody } from "@/lib/api/schemas/submissions";
import { route } from "@/lib/http/route";
import { getActiveRelease } from "@/lib/releases/get-release";
import { listQuotaLedger } from "@/lib/submissions/list-quota-ledger";

export const dynamic = "force-dynamic";

/** GET /api/quota/ledger — the caller's own charges, refunds and grants of test quota on the active release. */
export const GET = route(API.getQuotaLedger.input, async ({ actor }) => {
  const release = await getActiveRelease();
  const entries = await listQuotaLedger(actor.userId, release.id);
  return {
    releaseId: release.id,
    entries: entries.map((entry) => ({
      id: entry.id,
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
