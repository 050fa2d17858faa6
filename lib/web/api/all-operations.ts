import type { ApiOperation } from "./operations/shared";
import { ACCOUNT_API } from "./operations/account";
import { DATASET_API } from "./operations/dataset";
import { LEADERBOARD_API } from "./operations/leaderboard";
import { LOG_API } from "./operations/public-log";
import { SUBMISSION_API } from "./operations/submissions";

/**
 * Every operation of the public and token API, with the zod schemas of its
 * inputs and answers, in five groups (operations/*.ts; a route imports only its
 * own group): the OpenAPI document (lib/web/api/openapi.ts, served at
 * /api/openapi.json) and the API page (/docs/api) are generated from this
 * list, and lib/web/api/openapi.test.ts fails when a route under app/api has no
 * entry here. Maintainer-only routes (browser session) are left out on purpose.
 */
const API = { ...SUBMISSION_API, ...ACCOUNT_API, ...LEADERBOARD_API, ...LOG_API, ...DATASET_API };

/** Every operation with its id, in the document's order. */
export const API_OPERATIONS: readonly (ApiOperation & { operationId: string })[] = Object.entries(API).map(([operationId, operation]) => ({
  operationId,
  ...(operation as ApiOperation),
}));

/**
 * Routes under app/api that are not part of the public and token API, and why.
 * lib/web/api/openapi.test.ts accepts a route file only when it is documented above or listed here.
 * @internal exported for its unit test (and the tests of other modules); the platform does not call it.
 */
export const UNDOCUMENTED_ROUTES: Readonly<Record<string, string>> = {
  "/api/auth/{...nextauth}": "next-auth's own sign-in endpoints for the browser",
  "/api/admin/submissions": "maintainers only, with a browser session",
  "/api/admin/submissions/{id}/review": "maintainers only, with a browser session",
  "/api/admin/users/{id}": "maintainers only, with a browser session",
  "/api/admin/users/{id}/quota": "maintainers only, with a browser session",
  "/api/admin/users/{id}/budget-group": "maintainers only, with a browser session (one entries budget for one person's or lab's accounts)",
  "/api/admin/submissions/{id}/reproduction": "maintainers only, with a browser session (provenance tier reproduced)",
  "/api/public-page": "internal: scripts/server/web-server.mjs sends public page requests here for the shared page cache; not an API",
  "/api/account-menu": "internal: the site header's account menu on shared public pages, read by the browser; not an API",
};

