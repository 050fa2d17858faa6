import type { z } from "zod";
import { AppError } from "@/lib/errors";

/** Parses input with a schema or throws AppError("validation") naming each bad field. */
export function parseInput<Schema extends z.ZodType>(schema: Schema, input: unknown): z.output<Schema> {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => ({
    message: issue.path.length > 0 ? `${issue.path.join(".")}: ${issue.message}` : issue.message,
  }));
  throw new AppError("validation", problems[0]?.message ?? "The request is not valid.", { problems });
}

/** The JSON body of a request, or AppError("bad_request") when it is not JSON. */
export async function readJsonBody(request: Request): Promise<unknown> {
  try {
    return await request.json();
  } catch {
    throw new AppError("bad_request", "Send a JSON object as the request body (Content-Type: application/json).");
  }
}
