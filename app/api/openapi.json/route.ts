import { NextResponse } from "next/server";
import { getOpenApiDocument } from "@/lib/api/api-document";
import { errorResponse } from "@/lib/http";

export const dynamic = "force-dynamic";

/** GET /api/openapi.json — the OpenAPI 3.1 document of the public and token API, generated from its zod schemas (lib/api). */
export async function GET() {
  try {
    return NextResponse.json(getOpenApiDocument(), { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } });
  } catch (error) {
    return errorResponse(error);
  }
}
