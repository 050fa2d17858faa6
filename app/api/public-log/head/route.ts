import { LOG_API } from "@/lib/web/api/operations/public-log";
import { jsonNoStore, route } from "@/lib/web/http/route";
import { getSignedHead } from "@/lib/domain/public-log/read-public-log";

export const dynamic = "force-dynamic";

/** GET /api/public-log/head: the log's last seq and hash, signed with IRC_LOG_SIGNING_KEY (docs/public-log.md). */
export const GET = route(LOG_API.getPublicLogHead.input, async () => jsonNoStore(await getSignedHead()));
