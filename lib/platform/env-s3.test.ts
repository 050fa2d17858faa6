import { describe, expect, it } from "vitest";
import { envSchema, formatEnvError } from "@/lib/platform/env";

const BASE = { DATABASE_URL: "postgresql://x@localhost/db", REDIS_URL: "redis://localhost", IRC_FILE_STORE: "s3" };

function problems(variables: Record<string, string>): string {
  const parsed = envSchema.safeParse({ ...BASE, ...variables });
  return parsed.success ? "" : formatEnvError(parsed.error);
}

describe("the IRC_S3_* variables", () => {
  it("need only a bucket: keys, endpoint and region may come from the AWS SDK's chains", () => {
    const parsed = envSchema.parse({ ...BASE, IRC_S3_BUCKET: "irc-bench" });
    expect(parsed).toMatchObject({ IRC_S3_BUCKET: "irc-bench", IRC_S3_FORCE_PATH_STYLE: "auto", IRC_S3_MAX_ATTEMPTS: 3, IRC_S3_PART_BYTES: 8 * 1024 * 1024, IRC_S3_PREFIX: "submissions/" });
    expect(parsed.IRC_S3_REGION).toBeUndefined();
    expect(parsed.IRC_S3_ACCESS_KEY_ID).toBeUndefined();
    expect(problems({})).toContain("IRC_S3_BUCKET: is required when IRC_FILE_STORE=s3");
  });

  it("refuse one static key without the other, and a session token without the keys", () => {
    expect(problems({ IRC_S3_BUCKET: "b", IRC_S3_ACCESS_KEY_ID: "AKID" })).toContain("IRC_S3_SECRET_ACCESS_KEY: is required with the other static key");
    expect(problems({ IRC_S3_BUCKET: "b", IRC_S3_SECRET_ACCESS_KEY: "secret" })).toContain("IRC_S3_ACCESS_KEY_ID: is required with the other static key");
    expect(problems({ IRC_S3_BUCKET: "b", IRC_S3_SESSION_TOKEN: "token" })).toContain("IRC_S3_SESSION_TOKEN: goes with IRC_S3_ACCESS_KEY_ID");
    expect(problems({ IRC_S3_BUCKET: "b", IRC_S3_ACCESS_KEY_ID: "AKID", IRC_S3_SECRET_ACCESS_KEY: "secret", IRC_S3_SESSION_TOKEN: "token" })).toBe("");
  });

  it("keep parts within S3's limits and the path style to auto, 0 or 1", () => {
    expect(problems({ IRC_S3_BUCKET: "b", IRC_S3_PART_BYTES: "1048576" })).toContain("IRC_S3_PART_BYTES: must be at least 5242880");
    expect(problems({ IRC_S3_BUCKET: "b", IRC_S3_FORCE_PATH_STYLE: "yes" })).toContain("IRC_S3_FORCE_PATH_STYLE: must be auto, 0 or 1");
    expect(problems({ IRC_S3_BUCKET: "b", IRC_S3_MAX_ATTEMPTS: "0" })).toContain("IRC_S3_MAX_ATTEMPTS");
  });

  it("are not asked for by the other stores", () => {
    expect(envSchema.safeParse({ ...BASE, IRC_FILE_STORE: "postgres" }).success).toBe(true);
  });
});
