import { LOG_API } from "@/lib/web/api/operations/public-log";
import { route } from "@/lib/web/http/route";
import { getLogSigningKey } from "@/lib/platform/public-log-key";

export const dynamic = "force-dynamic";

/** GET /api/public-log/key: the Ed25519 public key of the log's signed heads (docs/public-log.md). */
export const GET = route(LOG_API.getPublicLogKey.input, async () =>
  Response.json(getLogSigningKey().described, { headers: { "Cache-Control": "public, max-age=300" } }),
);
