import { route } from "@/lib/http/route";
import { revokeApiToken } from "@/lib/tokens/revoke-api-token";

export const dynamic = "force-dynamic";

/** DELETE /api/tokens/:id: revoke a token (its owner, or a maintainer's session; others get 404). */
export const DELETE = route({ auth: "user", params: ["id"] }, async ({ actor, params }) => ({ apiToken: await revokeApiToken({ actor, tokenId: params.id }) }));
