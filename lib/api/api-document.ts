import packageJson from "@/package.json";
import { buildOpenApiDocument, type OpenApiDocument } from "./openapi";

let memo: OpenApiDocument | null = null;

/** The served document: built once per process (it depends on the code only). */
export function getOpenApiDocument(): OpenApiDocument {
  memo ??= buildOpenApiDocument({ version: packageJson.version });
  return memo;
}
