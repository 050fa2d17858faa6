import "server-only";
import type { KeyObject } from "node:crypto";
import { getEnv, logSigningKeyOf } from "@/lib/platform/env";
import { describeLogKey, signingKeyFromSeed, type LogKey } from "@/lib/core/public-log/signed-head";

/** The operator's Ed25519 key that signs the public log's heads (IRC_LOG_SIGNING_KEY), made once per process. */
let cached: { seed: string; key: KeyObject; described: LogKey } | null = null;

export function getLogSigningKey(): { key: KeyObject; described: LogKey } {
  const seed = logSigningKeyOf(getEnv());
  if (cached?.seed !== seed) {
    const key = signingKeyFromSeed(seed);
    cached = { seed, key, described: describeLogKey(key) };
  }
  return cached;
}
