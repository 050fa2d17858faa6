import { SUBMISSION_API } from "@/lib/web/api/operations/submissions";
import type { TestQuotaBody } from "@/lib/core/api-schemas/submissions";
import { route } from "@/lib/web/http/route";
import { getActiveRelease } from "@/lib/domain/releases/get-release";
import { getDevUploadUsage } from "@/lib/domain/quotas/get-dev-upload-usage";
import { getTestQuota } from "@/lib/domain/quotas/quota";

export const dynamic = "force-dynamic";

/** GET /api/quota — the caller's remaining test submissions on the active release, and what they used of the dev-upload limits. */
export const GET = route(SUBMISSION_API.getQuota.input, async ({ actor }) => {
  const release = await getActiveRelease();
  const now = new Date();
  const [quota, dev] = await Promise.all([getTestQuota(actor.userId, release.id, now), getDevUploadUsage(actor.userId, now)]);
  return {
    ...quota,
    nextFreeAt: quota.nextFreeAt?.toISOString() ?? null,
    dev: { ...dev, nextFreeAt: dev.nextFreeAt?.toISOString() ?? null },
  } satisfies TestQuotaBody;
});
