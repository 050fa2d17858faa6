/**
 * JSON Schema (as in the OpenAPI document) in words for the API page
 * (/docs/api): a short type per schema and one row per field. Pure.
 */

export type JsonSchema = { [key: string]: unknown };

export type FieldRow = { name: string; type: string; isRequired: boolean; description: string };

const REF_PREFIX = "#/components/schemas/";

function asSchema(value: unknown): JsonSchema | null {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as JsonSchema) : null;
}

/** The component a $ref names, or null. */
export function refName(schema: JsonSchema): string | null {
  const ref = schema.$ref;
  return typeof ref === "string" && ref.startsWith(REF_PREFIX) ? ref.slice(REF_PREFIX.length) : null;
}

function bounds(schema: JsonSchema, low: string, high: string, unit = ""): string {
  const min = schema[low];
  const max = schema[high];
  // Zod writes Number.MAX_SAFE_INTEGER as the maximum of a plain integer: not worth showing.
  const hasMax = typeof max === "number" && max < Number.MAX_SAFE_INTEGER;
  if (typeof min === "number" && hasMax) return ` ${min}–${max}${unit}`;
  if (typeof min === "number" && min !== 0) return ` ≥ ${min}${unit}`;
  if (typeof min === "number" && !hasMax && low === "minimum") return " ≥ 0";
  if (hasMax) return ` ≤ ${max}${unit}`;
  return "";
}

function typeWords(schema: JsonSchema): string {
  const name = refName(schema);
  if (name !== null) return name;
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.map((value) => JSON.stringify(value)).join(", ")}`;
  const union = (Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null) as unknown[] | null;
  if (union !== null) return union.map((member) => describeType(asSchema(member) ?? {})).join(" or ");
  const type = schema.type;
  if (Array.isArray(type)) return type.map((member) => describeType({ ...schema, type: member })).join(" or ");
  switch (type) {
    case "string":
      return `string${schema.format === "binary" ? " (file)" : ""}${bounds(schema, "minLength", "maxLength", " chars")}${typeof schema.pattern === "string" ? ` matching ${schema.pattern}` : ""}`;
    case "integer":
    case "number":
      return `${type}${bounds(schema, "minimum", "maximum")}`;
    case "boolean":
    case "null":
      return type;
    case "array": {
      if (Array.isArray(schema.prefixItems)) return `[${schema.prefixItems.map((item) => describeType(asSchema(item) ?? {})).join(", ")}]`;
      const items = asSchema(schema.items);
      return `array of ${items ? describeType(items) : "anything"}`;
    }
    case "object": {
      const values = asSchema(schema.additionalProperties);
      if (schema.properties === undefined && values !== null) return `map of ${describeType(values)}`;
      return "object";
    }
    default:
      return "anything";
  }
}

/** "integer 10–500", "one of "all", "right"", "SubmissionView or null", "array of SampleOutcome". */
export function describeType(schema: JsonSchema): string {
  const words = typeWords(schema);
  return "default" in schema ? `${words}, default ${JSON.stringify(schema.default)}` : words;
}

/** One row per field of an object schema, nested objects flattened to `parent.child` (to `depth` levels). */
export function fieldRows(schema: JsonSchema, depth = 2, prefix = ""): FieldRow[] {
  const objectSchema = objectPart(schema);
  const properties = asSchema(objectSchema?.properties);
  if (objectSchema === null || properties === null) return [];
  const required = new Set(Array.isArray(objectSchema.required) ? (objectSchema.required as string[]) : []);
  const rows: FieldRow[] = [];
  for (const [name, value] of Object.entries(properties)) {
    const field = asSchema(value) ?? {};
    const fullName = `${prefix}${name}`;
    rows.push({ name: fullName, type: describeType(field), isRequired: required.has(name), description: typeof field.description === "string" ? field.description : "" });
    const nested = objectPart(field);
    if (depth > 1 && nested !== null && asSchema(nested.properties) !== null) rows.push(...fieldRows(nested, depth - 1, `${fullName}.`));
  }
  return rows;
}

/** The object member of an object schema or of "object or null". */
function objectPart(schema: JsonSchema): JsonSchema | null {
  if (schema.type === "object") return schema;
  const union = Array.isArray(schema.anyOf) ? schema.anyOf : null;
  if (union === null) return null;
  const objects = union.map(asSchema).filter((member): member is JsonSchema => member !== null && member.type === "object");
  return objects.length === 1 ? (objects[0] ?? null) : null;
}
