import { createHash, timingSafeEqual } from "node:crypto";

/** Who may read /metrics: nobody while METRICS_TOKEN is unset (404), else a caller sending it as a Bearer token. */
type MetricsAccess = "disabled" | "unauthorized" | "allowed";

function digest(text: string): Buffer {
  return createHash("sha256").update(text, "utf8").digest();
}

export function checkMetricsAccess(authorization: string | null, token: string | undefined): MetricsAccess {
  if (token === undefined) return "disabled";
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  if (!match?.[1]) return "unauthorized";
  // Equal-length digests: the comparison takes the same time whatever the guess.
  return timingSafeEqual(digest(match[1]), digest(token)) ? "allowed" : "unauthorized";
}
