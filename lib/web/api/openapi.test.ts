import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "./openapi";
import { API_OPERATIONS, UNDOCUMENTED_ROUTES } from "./all-operations";

/**
 * The OpenAPI document validates as OpenAPI 3.1 (the official schema, with
 * JSON Schema 2020-12 for every schema object, every $ref resolved), and it
 * lists every public and token route: the test walks app/api, so a new route
 * file without an entry in lib/web/api/all-operations.ts (or a reason in
 * UNDOCUMENTED_ROUTES) fails here.
 */

const ROOT = path.resolve(__dirname, "..", "..", "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type RouteFile = { path: string; methods: string[]; file: string; source: string };

/** app/api/submissions/[id]/route.ts → /api/submissions/{id} */
function routePathOf(file: string): string {
  const relative = path.relative(path.join(ROOT, "app"), path.dirname(file));
  return `/${relative.split(path.sep).map((segment) => segment.replace(/^\[(.+)\]$/, "{$1}")).join("/")}`;
}

/** The HTTP methods a route file exports: `export async function GET`, `export const GET =`, `export { handler as GET }`. */
function exportedMethods(source: string): string[] {
  const found = new Set<string>();
  for (const method of METHODS) {
    if (new RegExp(`export\\s+(async\\s+)?function\\s+${method}\\b`).test(source)) found.add(method);
    if (new RegExp(`export\\s+const\\s+${method}\\b`).test(source)) found.add(method);
    if (new RegExp(`export\\s*\\{[^}]*\\bas\\s+${method}\\b[^}]*\\}`).test(source)) found.add(method);
  }
  return [...found].sort();
}

async function routeFiles(dir: string): Promise<RouteFile[]> {
  const out: RouteFile[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await routeFiles(full)));
    else if (entry.name === "route.ts") {
      const source = await readFile(full, "utf8");
      out.push({ path: routePathOf(full), methods: exportedMethods(source), file: path.relative(ROOT, full), source });
    }
  }
  return out;
}

const document = buildOpenApiDocument({ version: "0.0.0-test" });

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1, with every $ref resolved", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document) as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
    expect(() => validator.resolveRefs()).not.toThrow();
  });

  it("is plain JSON and the same every time it is built", () => {
    expect(JSON.parse(JSON.stringify(document))).toEqual(document);
    expect(buildOpenApiDocument({ version: "0.0.0-test" })).toEqual(document);
  });

  it("documents every route file under app/api, with each method it exports, or says why not", async () => {
    const routes = await routeFiles(path.join(ROOT, "app", "api"));
    expect(routes.length).toBeGreaterThan(10);
    const missing: string[] = [];
    for (const route of routes) {
      expect(route.methods, `${route.file} exports no HTTP method the test can see`).not.toEqual([]);
      if (route.path in UNDOCUMENTED_ROUTES) continue;
      for (const method of route.methods) {
        if (document.paths[route.path]?.[method.toLowerCase()] === undefined) missing.push(`${method} ${route.path} (${route.file})`);
      }
    }
    expect(missing, "add these to API_OPERATIONS in lib/web/api/all-operations.ts, or to UNDOCUMENTED_ROUTES with a reason").toEqual([]);
  });

  it("documents only operations that exist as route handlers, under app/api or app/dataset/download", async () => {
    const routes = [...(await routeFiles(path.join(ROOT, "app", "api"))), ...(await routeFiles(path.join(ROOT, "app", "dataset")))];
    const existing = new Set(routes.flatMap((route) => route.methods.map((method) => `${method.toLowerCase()} ${route.path}`)));
    const phantom = API_OPERATIONS.map((operation) => `${operation.method} ${operation.path}`).filter((key) => !existing.has(key));
    expect(phantom).toEqual([]);
    const stale = Object.keys(UNDOCUMENTED_ROUTES).filter((route) => !routes.some((file) => file.path === route));
    expect(stale, "UNDOCUMENTED_ROUTES names routes that no longer exist").toEqual([]);
  });

  it("describes the inputs the route wrapper parses: each documented handler is route(<GROUP>_API.<operationId>.input, ...)", async () => {
    const routes = [...(await routeFiles(path.join(ROOT, "app", "api"))), ...(await routeFiles(path.join(ROOT, "app", "dataset")))];
    const wrong: string[] = [];
    for (const operation of API_OPERATIONS) {
      const file = routes.find((route) => route.path === operation.path);
      const call = new RegExp(`export\\s+const\\s+${operation.method.toUpperCase()}\\s*=\\s*route\\(\\s*[A-Z]+_API\\.${operation.operationId}\\.input\\b`);
      if (file === undefined || !call.test(file.source)) wrong.push(`${operation.method.toUpperCase()} ${operation.path}: ${file?.file ?? "no route file"} should call route(<GROUP>_API.${operation.operationId}.input, ...)`);
    }
    expect(wrong).toEqual([]);
  });

  it("has one operationId per operation and errors that reference the shared Error schema", () => {
    const ids = API_OPERATIONS.map((operation) => operation.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const upload = document.paths["/api/submissions"]?.post as { requestBody: { content: Record<string, { schema: unknown }> }; responses: Record<string, { content?: Record<string, { schema: unknown }> }> };
    expect(upload.requestBody.content["multipart/form-data"]?.schema).toEqual({ $ref: "#/components/schemas/SubmissionUpload" });
    expect(upload.responses["422"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
    expect(upload.responses["201"]?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/SubmissionCreated" });
    const file = (document.components.schemas.SubmissionUpload as { properties: Record<string, unknown> }).properties.file;
    expect(file).toMatchObject({ type: "string", format: "binary" });
  });

  it("writes query parameters as clients send them: required only without a default, with bounds", () => {
    const samples = document.paths["/api/submissions/{id}/samples"]?.get as { parameters: { name: string; in: string; required: boolean; schema: Record<string, unknown> }[] };
    expect(samples.parameters.slice(0, 4).map((parameter) => [parameter.name, parameter.in, parameter.required])).toEqual([
      ["id", "path", true],
      ["page", "query", false],
      ["pageSize", "query", false],
      ["type", "query", false],
    ]);
    // z.preprocess fields are documented by the schema that parses the value.
    expect(samples.parameters.find((parameter) => parameter.name === "pageSize")?.schema).toMatchObject({ type: "integer", minimum: 1, maximum: 500, default: 50 });
    expect(samples.parameters.find((parameter) => parameter.name === "type")?.schema).toMatchObject({ type: "string", enum: expect.arrayContaining(["Person"]) });
    const split = document.paths["/api/dataset/sample-split"]?.get as { parameters: { name: string; required: boolean }[] };
    expect(split.parameters).toMatchObject([{ name: "id", required: true }]);
  });

  it("lists every format of the entry export, the Every Eval Ever record among the hub files", () => {
    const entryExport = document.paths["/api/entries/{id}/export"]?.get as { parameters: { name: string; schema: Record<string, unknown> }[]; description: string };
    expect(entryExport.parameters.find((parameter) => parameter.name === "format")?.schema).toMatchObject({
      enum: ["csv", "json", "tex", "model-index", "eval-results", "pwc", "every-eval-ever"],
      default: "csv",
    });
    expect(entryExport.description).toContain("every-eval-ever: an Every Eval Ever record (schema 0.3.0)");
  });

  it("marks token routes with both schemes, public ones with none, and token creation as session-only", () => {
    const security = (route: string, method: string) => (document.paths[route]?.[method] as { security: unknown }).security;
    expect(security("/api/submissions", "post")).toEqual([{ bearerToken: [] }, { sessionCookie: [] }]);
    expect(security("/api/leaderboard", "get")).toEqual([]);
    expect(security("/api/tokens", "post")).toEqual([{ sessionCookie: [] }]);
  });
});
