import { API } from "@/lib/api/operations";
import { jsonNoStore, route } from "@/lib/http/route";
import { createApiToken } from "@/lib/tokens/create-api-token";
import { listApiTokens } from "@/lib/tokens/list-api-tokens";

export const dynamic = "force-dynamic";

/** GET /api/tokens: your tokens (session or token). */
export const GET = route(API.listApiTokens.input, async ({ actor }) => ({ tokens: await listApiTokens({ actor }) }));

/** POST /api/tokens {name, expiresInDays?}: a new token, shown once (browser session only). */
export const POST = route(API.createApiToken.input, async ({ actor, body }) => jsonNoStore(await createApiToken({ actor, ...body }), { status: 201 }));
