import { ACCOUNT_API } from "@/lib/web/api/operations/account";
import { route } from "@/lib/web/http/route";
import { revokeApiToken } from "@/lib/domain/accounts/revoke-api-token";

export const dynamic = "force-dynamic";

/** DELETE /api/tokens/:id: revoke a token (its owner, or a maintainer's session; others get 404). */
export const DELETE = route(ACCOUNT_API.revokeApiToken.input, async ({ actor, params }) => ({ apiToken: await revokeApiToken({ actor, tokenId: params.id }) }));
