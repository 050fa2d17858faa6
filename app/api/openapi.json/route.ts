import { DATASET_API } from "@/lib/web/api/operations/dataset";
import { getOpenApiDocument } from "@/lib/web/api/api-document";
import { route } from "@/lib/web/http/route";

export const dynamic = "force-dynamic";

/** GET /api/openapi.json — the OpenAPI 3.1 document of the public and token API, generated from its zod schemas (lib/web/api). */
export const GET = route(DATASET_API.getOpenApiDocument.input, async () =>
  Response.json(getOpenApiDocument(), { headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" } }),
);
