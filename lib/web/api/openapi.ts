import { z } from "zod";
import { API_OPERATIONS } from "./all-operations";
import type { ApiOperation, OperationInput, OperationResponse } from "./operations/shared";
import { errorBodySchema } from "@/lib/core/api-schemas/errors";
import { apiComponents } from "@/lib/core/api-schemas/registry";

/**
 * The OpenAPI 3.1 document of the public and token API, generated from the
 * zod schemas of lib/web/api/all-operations.ts with z.toJSONSchema (JSON Schema
 * 2020-12, the dialect of OpenAPI 3.1). Pure: the same operations always give
 * the same document; /api/openapi.json serves it and /docs/api renders it.
 */

type JsonSchema = Record<string, unknown>;

export type OpenApiDocument = {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  servers: { url: string; description?: string }[];
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
};

type OpenApiOptions = { version: string; serverUrl?: string };

const COMPONENT_REF = (id: string) => `#/components/schemas/${id}`;
const DIALECT = "https://spec.openapis.org/oas/3.1/dialect/base";

const TAGS: OpenApiDocument["tags"] = [
  { name: "Submissions", description: "Upload predictions, follow their scoring, read scores and quota (session or API token)" },
  { name: "Account", description: "Your profile and API tokens" },
  { name: "Leaderboard", description: "The public leaderboard and entries: aggregates only, no credentials" },
  { name: "Dataset", description: "Downloads of the release and the command-line tools" },
  { name: "Operations", description: "Health of the deployment and this document" },
];

const SECURITY: Record<OperationInput["auth"], Record<string, string[]>[]> = {
  public: [],
  user: [{ bearerToken: [] }, { sessionCookie: [] }],
  session: [{ sessionCookie: [] }],
};

type DocumentedOperation = ApiOperation & { operationId: string };

/** Keys z.toJSONSchema adds at a root that do not belong inside an OpenAPI document. */
function embedded(schema: JsonSchema): JsonSchema {
  const { $schema: _dialect, $id: _uri, id: _id, ...rest } = schema;
  return rest;
}

/**
 * Answers may gain fields over time: z.object strips unknown keys when a
 * client parses, so the document does not promise `additionalProperties:
 * false` for them (a strict object, z.strictObject, still says so).
 */
function openObjects(context: { zodSchema: z.core.$ZodTypes; jsonSchema: Record<string, unknown> }): void {
  const def = context.zodSchema._zod.def;
  if (def.type === "object" && def.catchall === undefined && context.jsonSchema.additionalProperties === false) {
    delete context.jsonSchema.additionalProperties;
  }
}

/** Request inputs are documented as clients send them (z.input: before defaults and coercion). */
function inputSchema(schema: z.ZodType): JsonSchema {
  return embedded(z.toJSONSchema(schema, { io: "input", target: "draft-2020-12", unrepresentable: "any" }) as JsonSchema);
}

/** A registered component is referenced by name; anything else is written inline. */
function outputSchemaRef(schema: z.ZodType): JsonSchema {
  const id = apiComponents.get(schema)?.id;
  if (id !== undefined) return { $ref: COMPONENT_REF(id) };
  return embedded(z.toJSONSchema(schema, { io: "output", target: "draft-2020-12", unrepresentable: "any", override: openObjects }) as JsonSchema);
}

/**
 * z.preprocess(fn, schema) is a pipe from a transform, which JSON Schema cannot
 * show: a parameter is documented by the schema the value is then parsed with.
 */
function documentedField(schema: z.ZodType): z.ZodType {
  const def = schema._zod.def;
  if (def.type === "pipe" && "in" in def && "out" in def) {
    const pipe = def as unknown as { in: z.ZodType; out: z.ZodType };
    if (pipe.in._zod.def.type === "transform") return documentedField(pipe.out);
  }
  return schema;
}

/** Optional when the schema accepts a missing value (optional or with a default). */
function isOptional(schema: z.ZodType): boolean {
  return schema.safeParse(undefined).success;
}

function parametersOf(operation: ApiOperation): unknown[] {
  const parameters: unknown[] = [];
  const add = (where: "path" | "query", fields: Readonly<Record<string, unknown>>) => {
    for (const [name, field] of Object.entries(fields)) {
      const schema = inputSchema(documentedField(field as z.ZodType));
      const { description, ...rest } = schema;
      parameters.push({
        name,
        in: where,
        required: where === "path" || !isOptional(field as z.ZodType),
        ...(typeof description === "string" ? { description } : {}),
        schema: rest,
      });
    }
  };
  const pathFields = Object.fromEntries((operation.input.params ?? []).map((name) => [name, operation.paramDocs?.[name] ?? z.string()]));
  add("path", pathFields);
  add("query", (operation.input.query ?? operation.queryDocs)?.shape ?? {});
  for (const header of operation.headers ?? []) {
    parameters.push({ name: header.name, in: "header", required: header.isRequired === true, description: header.description, schema: { type: "string", maxLength: 200 } });
  }
  return parameters;
}

function responseOf(status: number, response: OperationResponse): unknown {
  const headers = Object.fromEntries(
    Object.entries(response.headers ?? {}).map(([name, description]) => [name, { description, schema: { type: "string" } }]),
  );
  const out: Record<string, unknown> = { description: response.description };
  if (Object.keys(headers).length > 0) out.headers = headers;
  if (response.schema !== undefined) {
    out.content = { [response.contentType ?? "application/json"]: { schema: outputSchemaRef(response.schema) } };
  } else if (status >= 400) {
    out.content = { "application/json": { schema: { $ref: COMPONENT_REF("Error") } } };
  } else if (response.contentType !== undefined) {
    out.content = Object.fromEntries(response.contentType.split(/,| or /).map((type) => [type.trim(), { schema: { type: "string" } }]).filter(([type]) => type !== ""));
  }
  return out;
}

/** The JSON body the wrapper parses, else the one the handler reads itself. */
function requestBodyOf(operation: ApiOperation): { contentType: string; schema: z.ZodType } | undefined {
  const body = operation.input.body;
  if (body !== undefined && body !== "json") return { contentType: "application/json", schema: body };
  return operation.requestBody;
}

function operationObject(operation: DocumentedOperation): Record<string, unknown> {
  const out: Record<string, unknown> = {
    operationId: operation.operationId,
    tags: [operation.tag],
    summary: operation.summary,
    security: SECURITY[operation.input.auth],
    responses: Object.fromEntries(Object.entries(operation.responses).map(([status, response]) => [status, responseOf(Number(status), response)])),
  };
  if (operation.description !== undefined) out.description = operation.description;
  const parameters = parametersOf(operation);
  if (parameters.length > 0) out.parameters = parameters;
  const body = requestBodyOf(operation);
  if (body !== undefined) {
    const schema = apiComponents.get(body.schema) ? outputSchemaRef(body.schema) : inputSchema(body.schema);
    out.requestBody = { required: true, content: { [body.contentType]: { schema } } };
  }
  return out;
}

function componentSchemas(): Record<string, JsonSchema> {
  // Error answers share one schema even where no operation names it as a response schema.
  if (apiComponents.get(errorBodySchema) === undefined) throw new Error("the Error schema is not registered");
  const { schemas } = z.toJSONSchema(apiComponents, { uri: COMPONENT_REF, target: "draft-2020-12", unrepresentable: "any", override: openObjects });
  return Object.fromEntries(Object.entries(schemas).map(([id, schema]) => [id, embedded(schema as JsonSchema)]));
}

export function buildOpenApiDocument(options: OpenApiOptions, operations: readonly DocumentedOperation[] = API_OPERATIONS): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const operation of operations) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method] = operationObject(operation);
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "IRC-Bench platform API",
      version: options.version,
      description:
        "The public leaderboard API and the token API of the IRC-Bench submission platform. Create an API token on the account page " +
        "and send it as `Authorization: Bearer <token>`; tokens carry participant rights only. Errors are JSON `{error: {code, message, problems?}}`. " +
        "Rates are fractions in [0, 1]. Scores of the test split are disclosed by protocol section 12.",
    },
    jsonSchemaDialect: DIALECT,
    servers: [{ url: options.serverUrl ?? "/", description: "this server" }],
    tags: TAGS,
    paths,
    components: {
      schemas: componentSchemas(),
      securitySchemes: {
        bearerToken: { type: "http", scheme: "bearer", description: "An API token from Account → API tokens" },
        sessionCookie: { type: "apiKey", in: "cookie", name: "next-auth.session-token", description: "A signed-in browser session (__Secure- prefix on https)" },
      },
    },
  };
}
