import { createApiTokenSchema } from "@/lib/core/accounts/token-schemas";
import { profilePatchSchema } from "@/lib/core/accounts/user-schemas";
import { apiTokenCreatedSchema, apiTokenListSchema, apiTokenRevokedSchema, meSchema } from "@/lib/core/api-schemas/account";
import { ID_PARAM, UNAUTHENTICATED, NOT_FOUND, INVALID, type ApiOperation } from "./shared";

/** The account and its API tokens (lib/web/api/all-operations.ts lists every group). */
export const ACCOUNT_API = {
  getMe: {
    method: "get",
    path: "/api/me",
    tag: "Account",
    summary: "Who the session or token belongs to",
    input: { auth: "user" },
    responses: { 200: { description: "You", schema: meSchema }, 401: UNAUTHENTICATED },
  },
  updateMe: {
    method: "patch",
    path: "/api/me",
    tag: "Account",
    summary: "Edit your display name or affiliation",
    input: { auth: "user", body: profilePatchSchema },
    responses: { 200: { description: "Your profile after the change", schema: meSchema }, 400: { description: "The body is not JSON" }, 401: UNAUTHENTICATED, 422: INVALID },
  },
  listApiTokens: {
    method: "get",
    path: "/api/tokens",
    tag: "Account",
    summary: "Your API tokens (never the tokens themselves)",
    input: { auth: "user" },
    responses: { 200: { description: "Your tokens", schema: apiTokenListSchema }, 401: UNAUTHENTICATED },
  },
  createApiToken: {
    method: "post",
    path: "/api/tokens",
    tag: "Account",
    summary: "Create an API token (browser session only)",
    description: "An API token cannot mint further tokens. The token is in the answer once; the account page does the same.",
    input: { auth: "session", body: createApiTokenSchema },
    responses: {
      201: { description: "The new token", schema: apiTokenCreatedSchema },
      401: UNAUTHENTICATED,
      403: { description: "Sent with an API token, or from another origin" },
      409: { description: "Too many active tokens; revoke one first" },
      422: INVALID,
    },
  },
  revokeApiToken: {
    method: "delete",
    path: "/api/tokens/{id}",
    tag: "Account",
    summary: "Revoke one of your API tokens",
    input: { auth: "user", params: ["id"] },
    paramDocs: ID_PARAM,
    responses: { 200: { description: "The token, now revoked", schema: apiTokenRevokedSchema }, 401: UNAUTHENTICATED, 404: NOT_FOUND },
  },
} as const satisfies Record<string, ApiOperation>;
