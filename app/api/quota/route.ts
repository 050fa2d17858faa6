import { API } from "@/lib/api/operations";
import type { TestQuotaBody } from "@/lib/api/schemas/submissions";
import { route } from "@/lib/http/route";
import { getActiveRelease } from "@/lib/releases/get-release";
import { getTestQuota } from "@/lib/submissions/quota";

export const dynamic = "force-dynamic";

/** GET /api/quota — the caller's remaining test submissions on the active release. */
export const GET = route(API.getQuota.input, async ({ actor }) => {
  const release = await getActiveRelease();
  const quota = await getTestQuota(actor.userId, release.id);
  return { ...quota, nextFreeAt: quota.nextFreeAt?.toISOString() ?? null } satisfies TestQuotaBody;
});
