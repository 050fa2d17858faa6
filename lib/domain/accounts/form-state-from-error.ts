import "server-only";
import { unstable_rethrow } from "next/navigation";
import type { FormState } from "@/lib/core/accounts/form-state";
import { isAppError } from "@/lib/core/errors";
import { logger } from "@/lib/platform/logger";

/** Application errors keep their message; anything else is logged and reported generically. */
export function formStateFromError(error: unknown, values?: Record<string, string>): FormState {
  // redirect(), notFound() and dynamic-rendering signals are Next.js control flow, not failures.
  unstable_rethrow(error);
  if (isAppError(error)) return { status: "error", message: error.message, values };
  logger.error({ err: error }, "server action: unexpected error");
  return { status: "error", message: "Something went wrong on our side. It has been logged; please try again.", values };
}
