import { z } from "zod";

/**
 * The named schemas of the public and token API: each becomes one entry of
 * the OpenAPI document's components.schemas (lib/web/api/openapi.ts). Field
 * descriptions (`.describe()`) stay in zod's global registry, which
 * z.toJSONSchema reads for metadata.
 */
export const apiComponents = z.registry<{ id: string }>();

/** Registers a schema under its component name and returns it unchanged. */
export function component<S extends z.ZodType>(id: string, schema: S): S {
  apiComponents.add(schema, { id });
  return schema;
}
