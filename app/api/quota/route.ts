import { route } from "@/lib/http/route";
import { getActiveRelease } from "@/lib/releases/get-release";
import { getTestQuota } from "@/lib/submissions/quota";

export const dynamic = "force-dynamic";

/** GET /api/quota — the caller's remaining test submissions on the active release. */
export const GET = route({ auth: "user" }, async ({ actor }) => {
  const release = await getActiveRelease();
  return getTestQuota(actor.userId, release.id);
});
