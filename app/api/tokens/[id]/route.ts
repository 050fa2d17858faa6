import { API } from "@/lib/api/operations";
import { route } from "@/lib/http/route";
import { revokeApiToken } from "@/lib/tokens/revoke-api-token";

export const dynamic = "force-dynamic";

/** DELETE /api/tokens/:id: revoke a token (its owner, or a maintainer's session; others get 404). */
export const DELETE = route(API.revokeApiToken.input, async ({ actor, params }) => ({ apiToken: await revokeApiToken({ actor, tokenId: params.id }) }));
