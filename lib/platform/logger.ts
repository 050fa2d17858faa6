import "server-only";
import { pino, type Logger } from "pino";
import { logLevelSchema } from "@/lib/platform/env";

/**
 * Structured JSON logs (one object a line on stdout) for the web server, the
 * worker and the scripts. Children carry context: `logger.child({ submissionId, jobId })`.
 * LOG_LEVEL picks the level; unset it is "info", or "error" under NODE_ENV=test
 * so test output stays quiet. A bad LOG_LEVEL is reported by lib/platform/env.ts at
 * start-up; here it falls back to the default so the report itself can be logged.
 */
function defaultLevel(): string {
  const parsed = logLevelSchema.safeParse(process.env.LOG_LEVEL);
  if (parsed.success) return parsed.data;
  return process.env.NODE_ENV === "test" ? "error" : "info";
}

const globalForLogger = globalThis as unknown as { ircLogger?: Logger };

function createLogger(): Logger {
  return pino({
    level: defaultLevel(),
    // Errors as { type, message, stack } under "err"; never a request body or a secret.
    serializers: { err: pino.stdSerializers.err },
    redact: { paths: ["password", "token", "authorization", "*.password", "*.token", "*.authorization"], censor: "[redacted]" },
  });
}

export const logger: Logger = (globalForLogger.ircLogger ??= createLogger());

/** The message of an unknown thrown value, for a log line's `err`. */
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
