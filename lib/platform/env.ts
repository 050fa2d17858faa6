import { z } from "zod";

/**
 * Every environment variable the platform reads, validated once at start-up.
 * The web app, the worker and the scripts parse this same schema, so a bad
 * configuration fails fast with a message that names the variable.
 */
const MIB = 1024 * 1024;

/**
 * A Hub repository id as huggingface_hub validates one: namespace/name, each
 * part of letters, digits, "-", "_" and ".", starting and ending with a letter
 * or digit, the name at most 96 characters.
 */
const HUB_REPO_ID = /^[A-Za-z0-9](?:[A-Za-z0-9_.-]*[A-Za-z0-9])?\/[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,94}[A-Za-z0-9])?$/;

/** The slice secret of development, the demo and the tests: public, so it protects nothing (refused in production without IRC_DEMO=1). */
export const DEVELOPMENT_SLICE_SECRET = "irc-bench-development-slice-secret-not-for-production";

/**
 * The public log's signing key of development, the demo and the tests (base64 of a 32-byte Ed25519 seed,
 * SHA-256 of "irc-bench-development-log-signing-key-not-for-production"): public, so a head it signs proves
 * nothing; refused in production without IRC_DEMO=1, like DEVELOPMENT_SLICE_SECRET.
 */
export const DEVELOPMENT_LOG_SIGNING_KEY = "xAEHr1d8fqWoKK+mSeSB+W+8oZjAeipQN9fu7bkzkNo=";

const positiveInt = (fallback: number) => z.coerce.number().int().positive().default(fallback);

/** pino's levels; "silent" logs nothing. Unset: "info", or "error" under NODE_ENV=test. */
export const logLevelSchema = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"], {
  message: "must be one of fatal, error, warn, info, debug, trace, silent",
});

export const envSchema = z.object({
  NODE_ENV: z.enum(["development", "test", "production"]).default("development"),
  DATABASE_URL: z.string().regex(/^postgres(ql)?:\/\//, "must be a postgresql:// URL"),
  REDIS_URL: z.string().regex(/^rediss?:\/\//, "must be a redis:// URL"),
  /** next-auth secret: signs session tokens and CSRF tokens. */
  NEXTAUTH_SECRET: z.string().min(16, "must be at least 16 characters").optional(),
  NEXTAUTH_URL: z.url().optional(),
  /**
   * Keys the test split's feedback and ranking slices (protocol section 12):
   * at least 32 characters, never rotated while a release name is live.
   * Required in production, and not the public DEVELOPMENT_SLICE_SECRET there
   * unless IRC_DEMO=1; elsewhere it defaults to that fixed value for the demo
   * and the tests, which protects nothing.
   */
  IRC_SLICE_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  /**
   * Signs the public log's head (docs/public-log.md): base64 of a 32-byte Ed25519 seed
   * (openssl rand -base64 32). Required in production, and not the public
   * DEVELOPMENT_LOG_SIGNING_KEY there unless IRC_DEMO=1; elsewhere it defaults to that value.
   */
  IRC_LOG_SIGNING_KEY: z
    .string()
    .refine((value) => /^[A-Za-z0-9+/]{43}=$/.test(value) && Buffer.from(value, "base64").length === 32, "must be 32 bytes in base64 (openssl rand -base64 32)")
    .optional(),
  /**
   * 1: this server holds only illustrative releases, whose test gold is public
   * anyway (the bundled demo: `npm run up` and the browser tests set it), so
   * production accepts the public development slice secret. Never on a server
   * of a real release.
   */
  IRC_DEMO: z.enum(["0", "1"], { message: "must be 0 or 1" }).default("0"),
  /**
   * The address participants reach the site at (https://irc-bench.example.org),
   * used for every absolute link the platform returns (lib/platform/public-url.ts).
   * Unset: NEXTAUTH_URL. An origin only: the app is served at the root of its host.
   */
  PUBLIC_URL: z
    .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://irc-bench.example.org" })
    .refine((value) => {
      // Not a URL at all is the check above's message alone (zod runs both checks).
      if (!URL.canParse(value)) return true;
      const url = new URL(value);
      return url.pathname === "/" && url.search === "" && url.hash === "" && url.username === "" && url.password === "";
    }, "must be an origin only (scheme, host and optional port, e.g. https://irc-bench.example.org): the site is served at the root of its host")
    .optional(),
  /**
   * The Hugging Face Hub dataset (namespace/name) the exports for the Hub name
   * as the entry's dataset (`.eval_results` dataset.id, the model-index
   * dataset type, Every Eval Ever hf_repo): set it to where the release is
   * published on the Hub. Unset: irc-bench/<release name> (hubDatasetIdOf in
   * lib/core/leaderboard/hub-exports.ts), the benchmark's own namespace.
   */
  HF_DATASET_ID: z
    .string()
    .regex(HUB_REPO_ID, "must be a Hugging Face Hub dataset id namespace/name, such as irc-bench/irc-bench (letters, digits, -, _ and . in each part)")
    .refine((value) => !value.includes("--") && !value.includes(".."), "must not contain -- or .. (the Hub refuses such names)")
    .optional(),
  GITHUB_ID: z.string().min(1).optional(),
  GITHUB_SECRET: z.string().min(1).optional(),
  /**
   * Reverse proxies in front of the web server that append to X-Forwarded-For.
   * 0: no proxy, the client address is the socket's and X-Forwarded-For is
   * ignored; N: the entry N places from the right (1: the address the nearest
   * proxy saw). Used by the sign-up and sign-in rate limits and the test
   * quota's address budget (protocol §12).
   */
  TRUSTED_PROXY_HOPS: z.coerce.number().int().min(0).max(10).default(0),
  /**
   * The address the web server listens on (scripts/server/web-server.mjs: npm start, npm run up).
   * 0.0.0.0 (default): every interface; 127.0.0.1 behind a reverse proxy on the same machine.
   */
  BIND_HOST: z
    .string()
    .regex(/^[A-Za-z0-9.:[\]-]+$/, "must be an address or host name to listen on, such as 127.0.0.1 or 0.0.0.0")
    .default("0.0.0.0"),
  /**
   * Whether test submissions wait until a maintainer approves the account
   * (User.approvedAt; lib/domain/accounts/test-approval.ts). "auto" (unset): on for a
   * release whose test split has 1,000 samples or more (protocol §12), off
   * for smaller ones; 1 or 0 decides for every release.
   */
  TEST_REQUIRES_APPROVAL: z
    .enum(["auto", "0", "1", "true", "false"], { message: "must be auto, 0 or 1" })
    .default("auto")
    .transform((value): "auto" | boolean => (value === "auto" ? "auto" : value === "1" || value === "true")),
  /**
   * 1: the public JSON API sends its precompressed gzip/brotli bodies. Set by
   * scripts/server/web-server.mjs, which passes their Content-Encoding on; under plain
   * `next start` (which drops a route's Content-Encoding) bodies go out as they
   * are and Next.js compresses them.
   */
  IRC_PRECOMPRESSED_RESPONSES: z
    .enum(["0", "1"], { message: "must be 0 or 1" })
    .default("0")
    .transform((value) => value === "1"),
  /**
   * Origin of this process's private, loopback-only listener that renders
   * pages for the shared page cache (http://127.0.0.1:PORT). Set by
   * scripts/server/web-server.mjs; unset (plain `next start`), pages are rendered for
   * every request and nothing is rewritten to the cache.
   */
  IRC_PAGE_RENDER_ORIGIN: z
    .string()
    .regex(/^http:\/\/127\.0\.0\.1:\d{1,5}$/, "must be http://127.0.0.1:PORT")
    .optional(),
  /**
   * Bounds of the public body cache (the cached public pages and API bodies,
   * lib/web/public-cache/public-body-cache.ts) in each web process: bodies and
   * bytes, the least recently used dropped first.
   */
  PUBLIC_CACHE_MAX_ENTRIES: positiveInt(1000),
  PUBLIC_CACHE_MAX_BYTES: positiveInt(128 * MIB),
  /**
   * What all web processes together may add to that cache in Redis per 10
   * minutes (bodies live 10 minutes): Redis never holds more than twice this.
   */
  PUBLIC_CACHE_SHARED_MAX_ENTRIES: positiveInt(2000),
  PUBLIC_CACHE_SHARED_MAX_BYTES: positiveInt(64 * MIB),
  /** Local data: uploads being received (staging/), the disk file store, project-local services. */
  IRC_DATA_DIR: z.string().min(1).default(".data"),
  /**
   * Where prediction files are kept (lib/platform/files/file-store.ts): "postgres"
   * (chunked bytea in DATABASE_URL; a worker needs nothing else), "disk"
   * (IRC_DATA_DIR/submissions/, one machine or a shared mount) or "s3" (an
   * S3-compatible bucket, IRC_S3_*).
   */
  IRC_FILE_STORE: z.enum(["postgres", "disk", "s3"], { message: "must be postgres, disk or s3" }).default("postgres"),
  /** With IRC_FILE_STORE=s3 (required): the bucket the prediction files are kept in. */
  IRC_S3_BUCKET: z.string().min(1).optional(),
  /**
   * An S3-compatible service instead of AWS (http://minio.internal:9000,
   * https://<account>.r2.cloudflarestorage.com). Unset: AWS's endpoint for the region.
   */
  IRC_S3_ENDPOINT: z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).optional(),
  /**
   * The bucket's region. Unset: the AWS SDK's region chain (AWS_REGION, the
   * profile's region), or us-east-1 when IRC_S3_ENDPOINT is set.
   */
  IRC_S3_REGION: z.string().min(1).optional(),
  /**
   * Path-style addressing (ENDPOINT/BUCKET/KEY) instead of virtual-hosted
   * (BUCKET.ENDPOINT/KEY): "1" or "0"; "auto" (default): path-style exactly
   * when IRC_S3_ENDPOINT is set, as most S3-compatible stores expect.
   */
  IRC_S3_FORCE_PATH_STYLE: z.enum(["auto", "0", "1"], { message: "must be auto, 0 or 1" }).default("auto"),
  /**
   * Static credentials, both or neither. Unset: the AWS SDK's default chain
   * (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY, web identity, SSO, AWS_PROFILE,
   * ECS task and EC2 instance roles).
   */
  IRC_S3_ACCESS_KEY_ID: z.string().min(1).optional(),
  IRC_S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  /** With the static keys: the session token of temporary credentials. */
  IRC_S3_SESSION_TOKEN: z.string().min(1).optional(),
  /** Key prefix of the prediction files in the bucket. */
  IRC_S3_PREFIX: z.string().default("submissions/"),
  /** Attempts per S3 request, the first included (the SDK's standard retries: backoff with jitter on throttling, 5xx and network faults). */
  IRC_S3_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(3),
  /** Files larger than this are uploaded in parts of this many bytes (multipart upload; S3's minimum part is 5 MiB). */
  IRC_S3_PART_BYTES: z.coerce
    .number()
    .int()
    .min(5 * MIB, "must be at least 5242880 (5 MiB, S3's smallest part)")
    .max(5 * 1024 * MIB, "must be at most 5 GiB (S3's largest part)")
    .default(8 * MIB),
  UPLOAD_MAX_BYTES: positiveInt(64 * MIB),
  /** Dev-split uploads one participant may make per rolling hour (429 past it). */
  DEV_UPLOADS_PER_HOUR: positiveInt(30),
  /** Bytes of dev-split files one participant may store per rolling 24 hours (429 past it). */
  DEV_UPLOAD_BYTES_PER_DAY: positiveInt(512 * MIB),
  TEST_QUOTA_PER_DAY: positiveInt(5),
  TEST_QUOTA_TOTAL: positiveInt(50),
  WORKER_CONCURRENCY: positiveInt(2),
  /**
   * How long a worker holds a job without renewing its lock (it renews every
   * half of this). A killed worker's job is taken over within 1.5 times this
   * (the lock expires, then the next stalled-job check, every half of it, moves
   * the job back): 30 s by default.
   */
  WORKER_LOCK_MS: positiveInt(20_000),
  /** How often the worker re-queues submissions whose job was lost (Redis down at upload, say). */
  WORKER_RECONCILE_MS: positiveInt(15_000),
  /**
   * Started scoring attempts of one submission (the worker dying mid-job included)
   * after which the reconciler stops re-queuing it and marks it FAILED.
   */
  SCORING_MAX_ATTEMPTS: positiveInt(20),
  /** Guards GET /metrics. Unset: /metrics answers 404; set: it needs "Authorization: Bearer <token>" (401 otherwise). */
  METRICS_TOKEN: z.string().min(16, "must be at least 16 characters").optional(),
  LOG_LEVEL: logLevelSchema.optional(),
  BOOTSTRAP_RESAMPLES: positiveInt(1000),
  BOOTSTRAP_SEED: z.coerce.number().int().nonnegative().default(42),
}).superRefine((env, context) => {
  if (env.NODE_ENV === "production" && env.IRC_SLICE_SECRET === undefined) {
    context.addIssue({ code: "custom", path: ["IRC_SLICE_SECRET"], message: "is required in production (at least 32 random characters; see docs/integrity.md)" });
  }
  if (env.NODE_ENV === "production" && env.IRC_SLICE_SECRET === DEVELOPMENT_SLICE_SECRET && env.IRC_DEMO !== "1") {
    context.addIssue({
      code: "custom",
      path: ["IRC_SLICE_SECRET"],
      message:
        "is the public development value, which protects nothing: set a secret of your own in production (at least 32 random characters, e.g. openssl rand -base64 48; see docs/integrity.md), or IRC_DEMO=1 on a server of the bundled demo only",
    });
  }
  if (env.NODE_ENV === "production" && env.IRC_LOG_SIGNING_KEY === undefined) {
    context.addIssue({ code: "custom", path: ["IRC_LOG_SIGNING_KEY"], message: "is required in production (32 bytes in base64: openssl rand -base64 32; see docs/public-log.md)" });
  }
  if (env.NODE_ENV === "production" && env.IRC_LOG_SIGNING_KEY === DEVELOPMENT_LOG_SIGNING_KEY && env.IRC_DEMO !== "1") {
    context.addIssue({
      code: "custom",
      path: ["IRC_LOG_SIGNING_KEY"],
      message: "is the public development key, which anyone can sign with: set a key of your own in production (openssl rand -base64 32; see docs/public-log.md), or IRC_DEMO=1 on a server of the bundled demo only",
    });
  }
  if (env.IRC_FILE_STORE !== "s3") return;
  if (env.IRC_S3_BUCKET === undefined) context.addIssue({ code: "custom", path: ["IRC_S3_BUCKET"], message: "is required when IRC_FILE_STORE=s3" });
  // One key of a pair is a typo, not a wish for the default credential chain.
  const keys = [env.IRC_S3_ACCESS_KEY_ID, env.IRC_S3_SECRET_ACCESS_KEY];
  if (keys.some((key) => key === undefined) && keys.some((key) => key !== undefined)) {
    const missing = env.IRC_S3_ACCESS_KEY_ID === undefined ? "IRC_S3_ACCESS_KEY_ID" : "IRC_S3_SECRET_ACCESS_KEY";
    context.addIssue({ code: "custom", path: [missing], message: "is required with the other static key (set both, or neither for the AWS default credential chain)" });
  }
  if (env.IRC_S3_SESSION_TOKEN !== undefined && env.IRC_S3_ACCESS_KEY_ID === undefined) {
    context.addIssue({ code: "custom", path: ["IRC_S3_SESSION_TOKEN"], message: "goes with IRC_S3_ACCESS_KEY_ID and IRC_S3_SECRET_ACCESS_KEY (temporary static keys)" });
  }
});

export type Env = z.infer<typeof envSchema>;

/** IRC_SLICE_SECRET, or the development value outside production (the schema refuses production without it). */
export function sliceSecretOf(env: Env): string {
  return env.IRC_SLICE_SECRET ?? DEVELOPMENT_SLICE_SECRET;
}

/** IRC_LOG_SIGNING_KEY, or the development key outside production (the schema refuses production without it). */
export function logSigningKeyOf(env: Env): string {
  return env.IRC_LOG_SIGNING_KEY ?? DEVELOPMENT_LOG_SIGNING_KEY;
}

let cached: Env | undefined;

export function formatEnvError(error: z.ZodError): string {
  const lines = error.issues.map((issue) => `  ${issue.path.join(".") || "(root)"}: ${issue.message}`);
  return `Invalid environment configuration:\n${lines.join("\n")}\nSee README.md, section Configuration.`;
}

export function getEnv(source: NodeJS.ProcessEnv = process.env): Env {
  if (cached && source === process.env) return cached;
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) throw new Error(formatEnvError(parsed.error));
  if (source === process.env) cached = parsed.data;
  return parsed.data;
}
