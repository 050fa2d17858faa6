import { API } from "@/lib/api/operations";
import { getOpenApiDocument } from "@/lib/api/api-document";
import { route } from "@/lib/http/route";

export const dynamic = "force-dynamic";

/** GET /api/openapi.json — the OpenAPI 3.1 document of the public and token API, generated from its zod schemas (lib/api). */
export const GET = route(API.getOpenApiDocument.input, async () =>
  Response.json(getOpenApiDocument(), { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } }),
);
