import { createHash, randomBytes } from "node:crypto";

/**
 * API token format: `ircb_` + 32 random bytes in base64url (43 characters).
 * Only the SHA-256 of the whole token is stored; the token is shown once. A
 * plain hash (no salt, no slow KDF) is right here: the token carries 256 bits
 * of entropy, so it cannot be guessed from its hash, and lookups stay O(1).
 */
const API_TOKEN_PREFIX = "ircb_";
const RANDOM_BYTES = 32;
const RANDOM_CHARS = 43;
/** How much of the token the list shows: the marker plus 6 random characters. */
const DISPLAY_PREFIX_LENGTH = API_TOKEN_PREFIX.length + 6;

const TOKEN_PATTERN = new RegExp(`^${API_TOKEN_PREFIX}[A-Za-z0-9_-]{${RANDOM_CHARS}}$`);

type GeneratedApiToken = { token: string; tokenHash: string; prefix: string };

export function hashApiToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function isApiTokenFormat(value: string): boolean {
  return TOKEN_PATTERN.test(value);
}

export function apiTokenDisplayPrefix(token: string): string {
  return token.slice(0, DISPLAY_PREFIX_LENGTH);
}

export function generateApiToken(): GeneratedApiToken {
  const token = `${API_TOKEN_PREFIX}${randomBytes(RANDOM_BYTES).toString("base64url")}`;
  return { token, tokenHash: hashApiToken(token), prefix: apiTokenDisplayPrefix(token) };
}
