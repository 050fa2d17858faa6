import "server-only";
import { createHmac, randomBytes } from "node:crypto";
import { getEnv } from "@/lib/platform/env";

/**
 * The gold version id that pages and APIs show instead of the gold's SHA-256
 * (protocol section 10): a plain hash of the test gold would let anyone
 * confirm a guessed gold offline. The id is an HMAC of the hash under the
 * server secret, so it changes exactly when the gold changes and says nothing
 * else. Staleness still compares the real hash, server-side.
 */

let fallbackKey: Buffer | undefined;

function serverKey(): Buffer | string {
  const secret = getEnv().NEXTAUTH_SECRET;
  if (secret !== undefined) return secret;
  // Without a configured secret (a bare `next dev`), a per-process key still hides the hash; ids change at restart.
  fallbackKey ??= randomBytes(32);
  return fallbackKey;
}

export function goldVersionId(goldSha256: string): string {
  return `gv-${createHmac("sha256", serverKey()).update(`irc-bench gold ${goldSha256}`).digest("hex").slice(0, 16)}`;
}
