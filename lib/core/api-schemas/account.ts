import { z } from "zod";
import { component } from "./registry";

const isoDate = z.string().describe("ISO 8601 date-time, UTC");

/** GET/PATCH /api/me: who the session or token belongs to (no email: scripts log this). */
export const meSchema = component(
  "Me",
  z.object({
    id: z.string(),
    displayName: z.string(),
    affiliation: z.string(),
    role: z.enum(["PARTICIPANT", "MAINTAINER"]),
    via: z.enum(["session", "token"]).describe("token: an API token, which carries participant rights only"),
  }),
);

const apiTokenViewSchema = component(
  "ApiToken",
  z.object({
    id: z.string(),
    name: z.string(),
    prefix: z.string().describe("the token's first characters, to recognise it"),
    createdAt: isoDate,
    lastUsedAt: isoDate.nullable(),
    expiresAt: isoDate.nullable(),
    revokedAt: isoDate.nullable(),
    status: z.enum(["active", "expired", "revoked"]),
  }),
);

export const apiTokenListSchema = component("ApiTokenList", z.object({ tokens: z.array(apiTokenViewSchema) }));

export const apiTokenCreatedSchema = component(
  "ApiTokenCreated",
  z.object({
    token: z.string().describe("the token itself, shown this once; the server keeps only its SHA-256"),
    apiToken: apiTokenViewSchema,
  }),
);

export const apiTokenRevokedSchema = component("ApiTokenRevoked", z.object({ apiToken: apiTokenViewSchema }));
