import "server-only";
import { NextResponse } from "next/server";
import { toErrorBody, toHttpStatus, isAppError } from "@/lib/errors";
import { logger } from "@/lib/logger";

/** Maps any thrown error to a JSON response; unknown errors are logged server-side only. */
export function errorResponse(error: unknown): NextResponse {
  const status = toHttpStatus(error);
  if (status === 500) logger.error({ err: error }, "api: unexpected error");
  const headers = new Headers({ "Cache-Control": "no-store" });
  if (isAppError(error) && error.retryAfterSeconds !== undefined) {
    headers.set("Retry-After", String(error.retryAfterSeconds));
  }
  return NextResponse.json(toErrorBody(error), { status, headers });
}
