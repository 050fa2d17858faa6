import { NextResponse } from "next/server";
import { requireSession } from "@/lib/auth/actor";
import { getActor } from "@/lib/auth/get-actor";
import { parseInput, readJsonBody } from "@/lib/auth/parse-input";
import { errorResponse } from "@/lib/http";
import { createApiToken } from "@/lib/tokens/create-api-token";
import { listApiTokens } from "@/lib/tokens/list-api-tokens";
import { createApiTokenSchema } from "@/lib/tokens/schemas";

export const dynamic = "force-dynamic";

const NO_STORE = { "Cache-Control": "no-store" };

/** GET /api/tokens: your tokens (session or token). */
export async function GET(request: Request) {
  try {
    const tokens = await listApiTokens({ actor: await getActor(request) });
    return NextResponse.json({ tokens }, { headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}

/** POST /api/tokens {name, expiresInDays?}: a new token, shown once (browser session only). */
export async function POST(request: Request) {
  try {
    const actor = requireSession(await getActor(request));
    const input = parseInput(createApiTokenSchema, await readJsonBody(request));
    const created = await createApiToken({ actor, ...input });
    return NextResponse.json(created, { status: 201, headers: NO_STORE });
  } catch (error) {
    return errorResponse(error);
  }
}
