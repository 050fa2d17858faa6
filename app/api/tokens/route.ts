import { ACCOUNT_API } from "@/lib/web/api/operations/account";
import { jsonNoStore, route } from "@/lib/web/http/route";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { listApiTokens } from "@/lib/domain/accounts/list-api-tokens";

export const dynamic = "force-dynamic";

/** GET /api/tokens: your tokens (session or token). */
export const GET = route(ACCOUNT_API.listApiTokens.input, async ({ actor }) => ({ tokens: await listApiTokens({ actor }) }));

/** POST /api/tokens {name, expiresInDays?}: a new token, shown once (browser session only). */
export const POST = route(ACCOUNT_API.createApiToken.input, async ({ actor, body }) => jsonNoStore(await createApiToken({ actor, ...body }), { status: 201 }));
