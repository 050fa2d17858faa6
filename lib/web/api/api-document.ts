import packageJson from "@/package.json";
import { publicOrigin } from "@/lib/platform/public-url";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi";

let memo: OpenApiDocument | null = null;

/** The served document: built once per process (it depends on the code and the public URL, PUBLIC_URL, only). */
export function getOpenApiDocument(): OpenApiDocument {
  memo ??= buildOpenApiDocument({ version: packageJson.version, serverUrl: publicOrigin() });
  return memo;
}
