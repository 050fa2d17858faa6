import { CLIENT_COMMAND } from "./command-name";
import { z } from "zod";
import { errorBodySchema } from "@/lib/core/api-schemas/errors";
import { ClientError } from "./client-error";
import { describeRetryAfter } from "./format";

/**
 * The client's one door to the server: fetch with `Authorization: Bearer`,
 * every answer parsed by the zod schema of lib/api/schemas (the schemas the
 * OpenAPI document is generated from), and every failure turned into a
 * ClientError that says what happened and what to do.
 */

type ApiClientOptions = {
  baseUrl: string;
  token?: string;
  userAgent: string;
  /** Per request, except uploads and downloads (which may take long). */
  timeoutMs?: number;
};

/** A refusal from the server, with its parsed error body. */
export class ApiRefusal extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly serverMessage: string,
    readonly problems: readonly { line?: number; message: string }[],
    readonly retryAfterSeconds: number | null,
    /** Whether the request carried a token: a 401 without one means "log in", not "the token is wrong". */
    readonly wasTokenSent: boolean,
  ) {
    super(serverMessage);
    this.name = "ApiRefusal";
  }
}

type RequestOptions = {
  method?: "GET" | "POST" | "PATCH";
  /** A form (uploads), or a JSON text sent as application/json. */
  body?: FormData | string;
  headers?: Record<string, string>;
  /** Uploads and downloads: no timeout. */
  isLong?: boolean;
  /** Statuses whose body is an answer, not a refusal (GET /api/health answers 503 with its report). */
  answerStatuses?: readonly number[];
};

const DEFAULT_TIMEOUT_MS = 30_000;

export class ApiClient {
  readonly baseUrl: string;
  private readonly token: string | undefined;
  private readonly userAgent: string;
  private readonly timeoutMs: number;

  constructor(options: ApiClientOptions) {
    this.baseUrl = options.baseUrl;
    this.token = options.token;
    this.userAgent = options.userAgent;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get hasToken(): boolean {
    return this.token !== undefined;
  }

  url(pathAndQuery: string): string {
    return `${this.baseUrl}${pathAndQuery}`;
  }

  /** The raw response of a successful request (2xx or 304); a refusal throws ApiRefusal, a network failure ClientError. */
  async fetch(pathAndQuery: string, options: RequestOptions = {}): Promise<Response> {
    const method = options.method ?? "GET";
    const headers: Record<string, string> = { "User-Agent": this.userAgent, Accept: "application/json", ...options.headers };
    if (this.token !== undefined) headers.Authorization = `Bearer ${this.token}`;
    if (typeof options.body === "string") headers["Content-Type"] = "application/json";
    let response: Response;
    try {
      response = await fetch(this.url(pathAndQuery), {
        method,
        headers,
        body: options.body,
        redirect: "manual",
        signal: options.isLong ? undefined : AbortSignal.timeout(this.timeoutMs),
      });
    } catch (error) {
      throw networkError(this.baseUrl, method, pathAndQuery, error, this.timeoutMs);
    }
    if (response.ok || response.status === 304 || options.answerStatuses?.includes(response.status)) return response;
    throw await refusalOf(response, method, pathAndQuery, this.token !== undefined);
  }

  /** A JSON answer parsed by `schema`; a body that does not match is reported as an incompatible server. */
  async json<S extends z.ZodType>(pathAndQuery: string, schema: S, options: RequestOptions = {}): Promise<z.output<S>> {
    const response = await this.fetch(pathAndQuery, options);
    const text = await response.text();
    return parseBody(schema, text, `${options.method ?? "GET"} ${pathAndQuery}`, this.baseUrl);
  }
}

function parseBody<S extends z.ZodType>(schema: S, text: string, what: string, baseUrl: string): z.output<S> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ClientError(2, [`${what}: the server at ${baseUrl} did not answer with JSON (is it an IRC-Bench server?): ${JSON.stringify(text.slice(0, 80))}`]);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3).map((issue) => `${issue.path.join(".") || "body"}: ${issue.message}`);
    throw new ClientError(2, [
      `${what}: the answer of ${baseUrl} does not have the expected shape (${issues.join("; ")}).`,
      "The server and this client may be of different versions: download the client again from the server's dataset page.",
    ]);
  }
  return parsed.data;
}

function causeCode(error: unknown): string | undefined {
  const cause = error instanceof Error ? (error.cause as { code?: unknown } | undefined) : undefined;
  return typeof cause?.code === "string" ? cause.code : undefined;
}

const NETWORK_REASONS: Record<string, string> = {
  ECONNREFUSED: "connection refused (is the server running on that port?)",
  ENOTFOUND: "no such host",
  EAI_AGAIN: "the host name could not be resolved right now",
  ECONNRESET: "the connection was reset",
  ETIMEDOUT: "the connection timed out",
  EHOSTUNREACH: "the host is unreachable",
  UND_ERR_SOCKET: "the connection was closed",
};

function networkError(baseUrl: string, method: string, pathAndQuery: string, error: unknown, timeoutMs: number): ClientError {
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return new ClientError(2, [`${method} ${pathAndQuery}: ${baseUrl} did not answer within ${Math.round(timeoutMs / 1000)} s. Try again later.`]);
  }
  const code = causeCode(error);
  const reason = (code && NETWORK_REASONS[code]) ?? (error instanceof Error ? (error.cause instanceof Error ? error.cause.message : error.message) : String(error));
  return new ClientError(2, [
    `Cannot reach the IRC-Bench server at ${baseUrl}: ${reason}.`,
    "Check the address (--url, or the IRC_BENCH_URL environment variable) and your network.",
  ]);
}

function retryAfterOf(response: Response): number | null {
  const header = response.headers.get("retry-after");
  if (header === null) return null;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds;
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.round((date - Date.now()) / 1000));
}

async function refusalOf(response: Response, method: string, pathAndQuery: string, wasTokenSent: boolean): Promise<ApiRefusal | ClientError> {
  const text = await response.text().catch(() => "");
  let value: unknown = null;
  try {
    value = JSON.parse(text);
  } catch {
    // Not JSON: a proxy's page, say. Reported below by status.
  }
  const parsed = errorBodySchema.safeParse(value);
  if (!parsed.success) {
    if (response.status === 413) return new ApiRefusal(413, "payload_too_large", "The file is over the server's upload limit.", [], null, wasTokenSent);
    return new ClientError(2, [`${method} ${pathAndQuery}: the server answered ${response.status} ${response.statusText} without an IRC-Bench error body.`]);
  }
  const { code, message, problems } = parsed.data.error;
  return new ApiRefusal(response.status, code, message, problems ?? [], retryAfterOf(response), wasTokenSent);
}

/**
 * What a refusal means for someone at a terminal, for the refusals that are
 * not the file's fault (those the submit command reports itself).
 */
export function explainRefusal(refusal: ApiRefusal, baseUrl: string, now: Date = new Date()): ClientError {
  switch (refusal.status) {
    case 401:
      if (!refusal.wasTokenSent) {
        return new ClientError(2, [
          `No API token was sent to ${baseUrl}: none is saved for it and IRC_BENCH_TOKEN is not set.`,
          `Create an API token on ${baseUrl}/account/tokens and run: ${CLIENT_COMMAND} login --url ${baseUrl}`,
        ]);
      }
      return new ClientError(2, [
        `${baseUrl} refused the credentials: ${refusal.serverMessage}`,
        `Create an API token on ${baseUrl}/account/tokens and run: ${CLIENT_COMMAND} login --url ${baseUrl}`,
      ]);
    case 429: {
      const lines = [refusal.serverMessage];
      if (refusal.retryAfterSeconds !== null) lines.push(describeRetryAfter(refusal.retryAfterSeconds, now, refusal.code === "quota" ? "test" : "other"));
      return new ClientError(2, lines);
    }
    default:
      if (refusal.status >= 500) {
        return new ClientError(2, [`The server failed (${refusal.status}): ${refusal.serverMessage}`, "Try again later."]);
      }
      return new ClientError(2, [`${refusal.serverMessage} (HTTP ${refusal.status})`]);
  }
}
