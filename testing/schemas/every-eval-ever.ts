import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv } from "ajv";

/**
 * Validates a document against the Every Eval Ever schema copied into this
 * folder (README.md there names its source, commit and version), with Ajv's
 * draft-07 validator: the schema's own dialect. Returns every violation as
 * "instancePath: message", an empty list for a valid document.
 */

export const EVERY_EVAL_EVER_SCHEMA_FILE = path.join(__dirname, "every-eval-ever-0.3.0.schema.json");

function compile() {
  const schema: unknown = JSON.parse(readFileSync(EVERY_EVAL_EVER_SCHEMA_FILE, "utf8"));
  if (typeof schema !== "object" || schema === null) throw new Error(`${EVERY_EVAL_EVER_SCHEMA_FILE} holds no JSON object`);
  // allowUnionTypes: the schema types metric_parameters' values as ["string", "number", "boolean", "null"].
  const ajv = new Ajv({ allErrors: true, allowUnionTypes: true });
  // The schema carries its own version as a top-level "version" annotation, no JSON Schema keyword.
  ajv.addKeyword({ keyword: "version", schemaType: "string" });
  return ajv.compile(schema);
}

let validate: ReturnType<typeof compile> | undefined;

export function everyEvalEverViolations(document: unknown): string[] {
  validate ??= compile();
  if (validate(document)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || "(root)"}: ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`);
}
