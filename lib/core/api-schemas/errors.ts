import { z } from "zod";
import { ERROR_CODES, type ErrorBody } from "@/lib/core/errors";
import { component } from "./registry";

const errorCodes = Object.keys(ERROR_CODES) as [keyof typeof ERROR_CODES, ...(keyof typeof ERROR_CODES)[]];

const problemSchema = component(
  "Problem",
  z.object({
    line: z.number().int().positive().optional().describe("1-based line of the uploaded file, when the problem is on one line"),
    file: z.string().optional(),
    message: z.string(),
  }),
);

/** Every error answer of the API (lib/core/errors.ts toErrorBody). */
export const errorBodySchema = component(
  "Error",
  z.object({
    error: z.object({
      code: z.enum(errorCodes).describe("validation → 422, bad_request → 400, unauthenticated → 401, forbidden → 403, not_found → 404, conflict → 409, payload_too_large → 413, quota and rate_limited → 429, unavailable → 503, internal → 500"),
      message: z.string().describe("What went wrong and what to do about it, in words for a person"),
      problems: z.array(problemSchema).optional().describe("Itemised problems, for example one per invalid line of an upload"),
    }),
  }),
);

// The server's error type and the schema must not drift apart: this line stops compiling when they do.
const _errorBodyMatches: ErrorBody extends z.input<typeof errorBodySchema> ? true : never = true;
