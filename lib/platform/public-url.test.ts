import { describe, expect, it } from "vitest";
import { envSchema } from "@/lib/platform/env";
import { isPublicUrlConfigured, publicOrigin, publicUrl } from "./public-url";

const BASE = { DATABASE_URL: "postgresql://u:p@127.0.0.1:5432/db", REDIS_URL: "redis://127.0.0.1:6379" };

function issuesOf(variables: Record<string, string>): string[] {
  const parsed = envSchema.safeParse({ ...BASE, ...variables });
  return parsed.success ? [] : parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("publicUrl", () => {
  it("is made from PUBLIC_URL, whatever NEXTAUTH_URL says", () => {
    const env = { PUBLIC_URL: "https://irc-bench.example.org", NEXTAUTH_URL: "http://internal:3000" };
    expect(publicUrl("/submissions/abc", env)).toBe("https://irc-bench.example.org/submissions/abc");
  });

  it("falls back to NEXTAUTH_URL's origin, then to localhost on PORT", () => {
    expect(publicUrl("/api/submissions/x", { PUBLIC_URL: undefined, NEXTAUTH_URL: "https://auth.example.org/" })).toBe("https://auth.example.org/api/submissions/x");
    expect(publicOrigin({ PUBLIC_URL: undefined, NEXTAUTH_URL: undefined }, "4100")).toBe("http://localhost:4100");
    expect(publicOrigin({ PUBLIC_URL: undefined, NEXTAUTH_URL: undefined }, undefined)).toBe("http://localhost:3000");
  });

  it("keeps a non-default port and drops a trailing slash", () => {
    expect(publicOrigin({ PUBLIC_URL: "http://10.0.0.5:8080/", NEXTAUTH_URL: undefined })).toBe("http://10.0.0.5:8080");
  });

  it("refuses a relative path", () => {
    expect(() => publicUrl("submissions/abc", { PUBLIC_URL: "https://irc-bench.example.org", NEXTAUTH_URL: undefined })).toThrow('"submissions/abc" must start with "/"');
  });

  it("tells a configured URL from the localhost fallback", () => {
    expect(isPublicUrlConfigured({ PUBLIC_URL: undefined, NEXTAUTH_URL: undefined })).toBe(false);
    expect(isPublicUrlConfigured({ PUBLIC_URL: undefined, NEXTAUTH_URL: "https://a.example.org" })).toBe(true);
  });
});

describe("PUBLIC_URL and BIND_HOST in the environment schema", () => {
  it("accepts an origin with or without a trailing slash", () => {
    expect(issuesOf({ PUBLIC_URL: "https://irc-bench.example.org" })).toEqual([]);
    expect(issuesOf({ PUBLIC_URL: "https://irc-bench.example.org/" })).toEqual([]);
  });

  it("refuses a path, a non-http scheme and a non-URL, naming the variable", () => {
    expect(issuesOf({ PUBLIC_URL: "https://example.org/bench" })).toEqual([
      "PUBLIC_URL: must be an origin only (scheme, host and optional port, e.g. https://irc-bench.example.org): the site is served at the root of its host",
    ]);
    expect(issuesOf({ PUBLIC_URL: "ftp://example.org" })).toEqual(["PUBLIC_URL: must be an http(s) URL such as https://irc-bench.example.org"]);
    expect(issuesOf({ PUBLIC_URL: "irc-bench.example.org" })).toEqual(["PUBLIC_URL: must be an http(s) URL such as https://irc-bench.example.org"]);
  });

  it("defaults BIND_HOST to every interface and refuses a value with a space", () => {
    expect(envSchema.parse(BASE).BIND_HOST).toBe("0.0.0.0");
    expect(issuesOf({ BIND_HOST: "127.0.0.1" })).toEqual([]);
    expect(issuesOf({ BIND_HOST: "127.0.0.1 ::1" })).toEqual(["BIND_HOST: must be an address or host name to listen on, such as 127.0.0.1 or 0.0.0.0"]);
  });
});
