import type { z } from "zod";

/**
 * What a server action returns to its form (React's useActionState). Field
 * errors sit next to their inputs; `values` echoes what was typed (never a
 * password) so a refused form does not come back empty.
 */
export type FormState = {
  status: "idle" | "error" | "success";
  message?: string;
  fieldErrors?: Record<string, string>;
  values?: Record<string, string>;
};

export const IDLE_FORM_STATE: FormState = { status: "idle" };

/** The first message for each top-level field. */
function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? "form");
    errors[field] ??= issue.message;
  }
  return errors;
}

export function invalidFormState(error: z.ZodError, values?: Record<string, string>): FormState {
  return { status: "error", message: "Please correct the fields marked below.", fieldErrors: fieldErrorsOf(error), values };
}

/** A text field of a submitted form ("" when absent or a file). */
export function formText(formData: FormData, name: string): string {
  const value = formData.get(name);
  return typeof value === "string" ? value : "";
}
