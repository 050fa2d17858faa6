/**
 * The application's one error type. Domain operations throw it with a code;
 * `toHttpStatus` maps the code to HTTP in one place, and unknown errors become
 * 500 with no internals.
 */
export const ERROR_CODES = {
  validation: 422,
  bad_request: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  payload_too_large: 413,
  quota: 429,
  rate_limited: 429,
  internal: 500,
  /** A dependency (file store, Redis) is down: retry later; nothing was charged. */
  unavailable: 503,
} as const;

type ErrorCode = keyof typeof ERROR_CODES;

/** One problem of an input: a line of a file, or a named form field. */
export type ProblemDetail = { line?: number; message: string; file?: string; field?: string };

export class AppError extends Error {
  readonly code: ErrorCode;
  /** Itemised problems (for example one per invalid line of an upload). */
  readonly problems: ProblemDetail[];
  /** Seconds after which a rate-limited or quota-limited call may be retried. */
  readonly retryAfterSeconds?: number;

  constructor(code: ErrorCode, message: string, options: { problems?: ProblemDetail[]; retryAfterSeconds?: number } = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.problems = options.problems ?? [];
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

export function toHttpStatus(error: unknown): number {
  return isAppError(error) ? ERROR_CODES[error.code] : 500;
}

export type ErrorBody = { error: { code: ErrorCode; message: string; problems?: ProblemDetail[] } };

/** What a client may see of an error: never a stack, a query or a gold label. */
export function toErrorBody(error: unknown): ErrorBody {
  if (!isAppError(error)) {
    return { error: { code: "internal", message: "Something went wrong on our side. It has been logged; please try again." } };
  }
  const body: ErrorBody = { error: { code: error.code, message: error.message } };
  if (error.problems.length > 0) body.error.problems = error.problems;
  return body;
}
