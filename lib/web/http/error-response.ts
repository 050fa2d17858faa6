import "server-only";
import { NextResponse } from "next/server";
import { AppError, toErrorBody, toHttpStatus, isAppError } from "@/lib/core/errors";
import { logger } from "@/lib/platform/logger";

/** PostgreSQL's refusals of text it cannot store: NUL (22021 in text, 22P05 in jsonb). */
const UNSTORABLE_TEXT_CODES = new Set(["22021", "22P05"]);

function databaseErrorCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const withCause = error as { cause?: { code?: unknown }; meta?: { driverAdapterError?: { cause?: { code?: unknown } } } };
  const code = withCause.cause?.code ?? withCause.meta?.driverAdapterError?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

/**
 * The last line of defence behind the shared input schemas (lib/core/text.ts):
 * text PostgreSQL cannot store is the client's mistake (400), not a 500.
 */
function asClientError(error: unknown): unknown {
  const code = databaseErrorCode(error);
  if (code === undefined || !UNSTORABLE_TEXT_CODES.has(code)) return error;
  return new AppError("bad_request", "The request contains a NUL character (\\u0000) or other text that cannot be stored. Remove it and send the request again.");
}

/** Maps any thrown error to a JSON response; unknown errors are logged server-side only. */
export function errorResponse(thrown: unknown): NextResponse {
  const error = asClientError(thrown);
  const status = toHttpStatus(error);
  if (status === 500) logger.error({ err: error }, "api: unexpected error");
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (isAppError(error) && error.retryAfterSeconds !== undefined) {
    headers.set("Retry-After", String(error.retryAfterSeconds));
  }
  return NextResponse.json(toErrorBody(error), { status, headers });
}
