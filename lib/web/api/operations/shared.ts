import { z } from "zod";

/**
 * Every operation of the public and token API, with the zod schemas of its
 * inputs and answers: the OpenAPI document (lib/web/api/openapi.ts, served at
 * /api/openapi.json) and the API page (/docs/api) are generated from this
 * list, and lib/web/api/openapi.test.ts fails when a route under app/api has no
 * entry here. Maintainer-only routes (browser session) are left out on purpose.
 */

export type HttpMethod = "get" | "post" | "patch" | "delete";

/**
 * What the route wrapper (lib/web/http/route.ts) parses before the handler runs:
 * the handler passes this very object to `route()`, so the document describes
 * the schemas the server applies. `auth`: "public" needs no credentials;
 * "user" a browser session or `Authorization: Bearer <API token>`; "session"
 * a browser session only (an API token is refused with 403).
 */
export type OperationInput = {
  auth: "public" | "user" | "session";
  params?: readonly string[];
  query?: z.ZodObject;
  /** A JSON body schema, or "json" when the operation parses the body itself (see `requestBody`). */
  body?: z.ZodType | "json";
};

type OperationBody = { contentType: "application/json" | "multipart/form-data"; schema: z.ZodType };

export type OperationResponse = {
  description: string;
  /** JSON body schema; omitted for a body that is a file (see contentType) or empty. */
  schema?: z.ZodType;
  /** Default application/json when a schema is given. */
  contentType?: string;
  headers?: Readonly<Record<string, string>>;
};

type OperationHeader = { name: string; description: string; isRequired?: boolean };

export type ApiOperation = {
  method: HttpMethod;
  /** OpenAPI path template: /api/submissions/{id}. */
  path: string;
  tag: "Submissions" | "Account" | "Leaderboard" | "Dataset" | "Operations";
  summary: string;
  description?: string;
  input: OperationInput;
  /** How each path parameter of `input.params` looks (default: a string). */
  paramDocs?: Readonly<Record<string, z.ZodType>>;
  /** The documented query when the handler reads it itself instead of `input.query`. */
  queryDocs?: z.ZodObject;
  headers?: readonly OperationHeader[];
  /** The documented body when the handler reads it itself: a streamed upload, or `body: "json"` parsed by the operation. */
  requestBody?: OperationBody;
  responses: Readonly<Record<number, OperationResponse>>;
};


export const ID_PARAM = { id: z.string().min(1).max(64).describe("the id the API returned") };

/** GET /api/entries/{id} takes no query parameter (an unknown one is a 422). */
export const NO_QUERY = z.object({}).strict();
/** GET /dataset/download/{file}[?release=ID] */
export const downloadQuerySchema = z.object({ release: z.string().min(1).max(64).optional().describe("a release id; default: the active release") });
/** GET /api/dataset/sample-split?id=... */
export const sampleSplitQuerySchema = z.object({ id: z.string().min(1).max(200).describe("a sample id from a download") });

/** Errors most operations can answer; each operation adds its own. */
export const UNAUTHENTICATED: OperationResponse = { description: "No session and no token, or an invalid, revoked or expired token" };
export const NOT_FOUND: OperationResponse = { description: "Not found, or not yours (the answer does not reveal which)" };
export const INVALID: OperationResponse = { description: "Invalid input; `problems` names each one" };

export const RETRY_AFTER = { "Retry-After": "seconds until a test submission is free again (the 24-hour window); absent when the total is used up" };
export const DOWNLOAD_HEADERS = {
  ETag: "strong ETag: the SHA-256 in quotes (send If-None-Match for a 304)",
  "X-Content-SHA256": "SHA-256 of the body, as listed on the dataset page",
  "Content-Disposition": "attachment with the file name that says which release it is",
};
