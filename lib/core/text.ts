import { z } from "zod";
import { AppError } from "@/lib/core/errors";

/**
 * Text from outside (form fields, query parameters, route parameters,
 * headers) goes to PostgreSQL, which refuses U+0000 outright: a NUL must be a
 * 4xx naming the field, never a 500 from the database. These schemas are
 * shared by the browser, the route handlers and the domain operations.
 */
const NUL_MESSAGE = "must not contain a NUL character (\\u0000)";

/** Free text (descriptions, reasons, search boxes): anything but NUL and lone surrogates. */
export function freeText() {
  return z
    .string()
    .refine((value) => !value.includes("\u0000"), { message: NUL_MESSAGE })
    .refine((value) => value.isWellFormed(), { message: "must be valid Unicode text (a lone surrogate was found)" });
}

/** Ids of submissions, users and tokens are cuids: letters, digits, "_" and "-". */
export const recordIdSchema = z
  .string()
  .min(1, { message: "must not be empty" })
  .max(64, { message: "is too long to be an id" })
  .regex(/^[A-Za-z0-9_-]+$/, { message: "is not an id" });

/** Shows untrusted text in a message without its control characters. */
function quoteForMessage(value: string, maxLength = 64): string {
  let shown = "";
  for (const character of value.slice(0, maxLength)) {
    const code = character.codePointAt(0) ?? 0;
    const isControl = code < 0x20 || (code >= 0x7f && code <= 0x9f);
    shown += isControl ? `\\u${code.toString(16).padStart(4, "0")}` : character;
  }
  return `"${shown}${value.length > maxLength ? "…" : ""}"`;
}

/**
 * The id of a `what` ("submission", "token", "user"), or 404 naming it: an
 * id no row can have is not found, whatever bytes it holds.
 */
export function parseRecordId(id: string, what: string): string {
  const parsed = recordIdSchema.safeParse(id);
  if (!parsed.success) throw new AppError("not_found", `No ${what} has the id ${quoteForMessage(id)}.`);
  return parsed.data;
}
