import { describe, expect, it } from "vitest";
import { DEVELOPMENT_LOG_SIGNING_KEY, DEVELOPMENT_SLICE_SECRET, envSchema, formatEnvError, logSigningKeyOf, sliceSecretOf } from "@/lib/platform/env";

const BASE = { DATABASE_URL: "postgresql://x@localhost/db", REDIS_URL: "redis://localhost" };
const OWN_SECRET = "an-operator-secret-0123456789abcdef";
const OWN_LOG_KEY = Buffer.alloc(32, 7).toString("base64");

function problems(variables: Record<string, string | undefined>): string {
  // The log signing key has its own tests below; here it is set wherever production needs it.
  const logKey = variables.NODE_ENV === "production" && !("IRC_LOG_SIGNING_KEY" in variables) ? { IRC_LOG_SIGNING_KEY: OWN_LOG_KEY } : {};
  const parsed = envSchema.safeParse({ ...BASE, ...logKey, ...variables });
  return parsed.success ? "" : formatEnvError(parsed.error);
}

describe("IRC_SLICE_SECRET (protocol §12)", () => {
  it("production refuses to start without it, naming the variable and the rule", () => {
    expect(problems({ NODE_ENV: "production" })).toContain("IRC_SLICE_SECRET: is required in production (at least 32 random characters; see docs/integrity.md)");
  });

  it("is at least 32 characters, in every mode: 31 are refused, 32 accepted", () => {
    for (const NODE_ENV of ["production", "development", "test"]) {
      expect(problems({ NODE_ENV, IRC_SLICE_SECRET: "x".repeat(31) })).toContain("IRC_SLICE_SECRET: must be at least 32 characters");
      expect(problems({ NODE_ENV, IRC_SLICE_SECRET: "x".repeat(32) })).toBe("");
    }
  });

  it("production refuses the public development value unless IRC_DEMO=1 says the server holds only the demo", () => {
    expect(problems({ NODE_ENV: "production", IRC_SLICE_SECRET: DEVELOPMENT_SLICE_SECRET })).toContain(
      "IRC_SLICE_SECRET: is the public development value, which protects nothing: set a secret of your own in production",
    );
    expect(problems({ NODE_ENV: "production", IRC_SLICE_SECRET: DEVELOPMENT_SLICE_SECRET, IRC_DEMO: "0" })).toContain("is the public development value");
    expect(problems({ NODE_ENV: "production", IRC_SLICE_SECRET: DEVELOPMENT_SLICE_SECRET, IRC_DEMO: "1" })).toBe("");
    expect(problems({ NODE_ENV: "production", IRC_SLICE_SECRET: OWN_SECRET })).toBe("");
    expect(problems({ IRC_DEMO: "yes" })).toContain("IRC_DEMO: must be 0 or 1");
  });

  it("outside production it defaults to the development value; a secret set is used as it is", () => {
    expect(sliceSecretOf(envSchema.parse({ ...BASE, NODE_ENV: "test" }))).toBe(DEVELOPMENT_SLICE_SECRET);
    expect(sliceSecretOf(envSchema.parse({ ...BASE, NODE_ENV: "development", IRC_SLICE_SECRET: DEVELOPMENT_SLICE_SECRET }))).toBe(DEVELOPMENT_SLICE_SECRET);
    expect(sliceSecretOf(envSchema.parse({ ...BASE, NODE_ENV: "production", IRC_SLICE_SECRET: OWN_SECRET, IRC_LOG_SIGNING_KEY: OWN_LOG_KEY }))).toBe(OWN_SECRET);
  });
});

describe("IRC_LOG_SIGNING_KEY (the public log's signed heads)", () => {
  it("production refuses to start without it, or with the public development key unless IRC_DEMO=1", () => {
    expect(problems({ NODE_ENV: "production", IRC_SLICE_SECRET: OWN_SECRET, IRC_LOG_SIGNING_KEY: undefined })).toContain("IRC_LOG_SIGNING_KEY: is required in production");
    expect(problems({ NODE_ENV: "production", IRC_SLICE_SECRET: OWN_SECRET, IRC_LOG_SIGNING_KEY: DEVELOPMENT_LOG_SIGNING_KEY })).toContain("IRC_LOG_SIGNING_KEY: is the public development key");
    expect(problems({ NODE_ENV: "production", IRC_SLICE_SECRET: OWN_SECRET, IRC_LOG_SIGNING_KEY: DEVELOPMENT_LOG_SIGNING_KEY, IRC_DEMO: "1" })).toBe("");
    expect(problems({ NODE_ENV: "production", IRC_SLICE_SECRET: OWN_SECRET, IRC_LOG_SIGNING_KEY: OWN_LOG_KEY })).toBe("");
  });

  it("is 32 bytes in base64, in every mode; outside production it defaults to the development key", () => {
    expect(problems({ IRC_LOG_SIGNING_KEY: Buffer.alloc(31).toString("base64") })).toContain("IRC_LOG_SIGNING_KEY: must be 32 bytes in base64");
    expect(problems({ IRC_LOG_SIGNING_KEY: "not base64 at all but 44 characters long!!!" })).toContain("IRC_LOG_SIGNING_KEY: must be 32 bytes in base64");
    expect(logSigningKeyOf(envSchema.parse({ ...BASE, NODE_ENV: "test" }))).toBe(DEVELOPMENT_LOG_SIGNING_KEY);
    expect(logSigningKeyOf(envSchema.parse({ ...BASE, NODE_ENV: "test", IRC_LOG_SIGNING_KEY: OWN_LOG_KEY }))).toBe(OWN_LOG_KEY);
  });
});
