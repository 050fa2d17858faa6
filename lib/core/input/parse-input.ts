import type { z } from "zod";
import { AppError, type ProblemDetail } from "@/lib/core/errors";
import { describeIssue, fieldName } from "./describe-issue";

/**
 * Input from outside (a JSON body, a query string, route params) becomes a
 * typed value here or a 422 whose problems name each field at fault. The
 * route wrapper (lib/web/http/route.ts) calls these; so do the operations that
 * must check who is asking before they look at the input.
 */

type Subject = "field" | "query parameter";

/** The path of the first string (or key) holding U+0000, which PostgreSQL cannot store in text. */
export function findNulByte(value: unknown, path: PropertyKey[] = []): PropertyKey[] | null {
  if (typeof value === "string") return value.includes("\u0000") ? path : null;
  if (Array.isArray(value)) {
    for (const [index, item] of value.entries()) {
      const found = findNulByte(item, [...path, index]);
      if (found) return found;
    }
    return null;
  }
  if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (key.includes("\u0000")) return [...path, key];
      const found = findNulByte(item, [...path, key]);
      if (found) return found;
    }
  }
  return null;
}

function nulByteProblem(path: readonly PropertyKey[], subject: Subject = "field"): string {
  const where = path.length === 0 ? (subject === "field" ? "the request body" : "the query") : `${subject} "${fieldName(path)}"`;
  return `${where} contains a NUL character (\\u0000), which cannot be stored; remove it`;
}

/** Throws a 422 when any string in `value` holds a NUL character. */
export function rejectNulBytes(value: unknown, subject: Subject = "field"): void {
  const path = findNulByte(value);
  if (path === null) return;
  const message = nulByteProblem(path, subject);
  throw new AppError("validation", message, { problems: [{ message }] });
}

function problemsOf(error: z.ZodError, subject: Subject): ProblemDetail[] {
  // `field` lets a form put each message beside its input.
  return error.issues.map((issue) => ({ message: describeIssue(issue, subject), ...(issue.path.length > 0 ? { field: fieldName(issue.path) } : {}) }));
}

/**
 * Parses input with a schema or throws AppError("validation") naming each bad
 * field; the message is `summary` when given, else the first problem.
 */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown, options: { summary?: string } = {}): z.output<Schema> {
  rejectNulBytes(input);
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = problemsOf(parsed.error, "field");
  throw new AppError("validation", options.summary ?? problems[0]?.message ?? "The request is not valid.", { problems });
}

/** The JSON body of a request, or AppError("bad_request") when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("bad_request", "Send a JSON object as the request body (Content-Type: application/json).");
  }
}

/** Query parameters as a record; a parameter given twice is a problem, not a silent pick. */
function searchParamsRecord(params: URLSearchParams): { record: Record<string, string>; problems: ProblemDetail[] } {
  const record: Record<string, string> = {};
  const problems: ProblemDetail[] = [];
  for (const [key, value] of params) {
    if (Object.hasOwn(record, key)) {
      problems.push({ message: `query parameter "${key}" is given more than once` });
      continue;
    }
    record[key] = value;
  }
  return { record, problems };
}

/** Parses a query string strictly: any problem is a 422 listing each parameter at fault. */
export function parseQuery<S extends z.ZodType>(schema: S, params: URLSearchParams): z.output<S> {
  const { record, problems } = searchParamsRecord(params);
  const nulPath = findNulByte(record);
  if (nulPath !== null) problems.push({ message: nulByteProblem(nulPath, "query parameter") });
  const parsed = schema.safeParse(record);
  if (!parsed.success) problems.push(...problemsOf(parsed.error, "query parameter"));
  if (problems.length > 0 || !parsed.success) {
    throw new AppError("validation", `Invalid query: ${problems.map((problem) => problem.message).join("; ")}.`, { problems });
  }
  return parsed.data;
}
