import { describe, expect, it } from "vitest";
import { assertSameOrigin, isMutatingMethod } from "@/lib/domain/accounts/same-origin";
import { AppError } from "@/lib/core/errors";

function headers(values: Record<string, string>): Headers {
  return new Headers(values);
}

describe("assertSameOrigin", () => {
  it("accepts an Origin that matches Host", () => {
    expect(() => assertSameOrigin(headers({ host: "bench.example.org", origin: "https://bench.example.org" }), undefined)).not.toThrow();
    expect(() => assertSameOrigin(headers({ host: "127.0.0.1:3100", origin: "http://127.0.0.1:3100" }), undefined)).not.toThrow();
  });

  it("accepts the configured NEXTAUTH_URL host and a forwarded host", () => {
    expect(() =>
      assertSameOrigin(headers({ host: "internal:3000", origin: "https://bench.example.org" }), "https://bench.example.org"),
    ).not.toThrow();
    expect(() =>
      assertSameOrigin(
        headers({ host: "internal:3000", "x-forwarded-host": "bench.example.org", origin: "https://bench.example.org" }),
        undefined,
      ),
    ).not.toThrow();
  });

  it("refuses another site, a port mismatch, a missing or opaque Origin", () => {
    const cases = [
      headers({ host: "bench.example.org", origin: "https://evil.example" }),
      headers({ host: "127.0.0.1:3100", origin: "http://127.0.0.1:3101" }),
      headers({ host: "bench.example.org" }),
      headers({ host: "bench.example.org", origin: "null" }),
      headers({ host: "bench.example.org", origin: "not a url" }),
    ];
    for (const value of cases) {
      expect(() => assertSameOrigin(value, undefined)).toThrow(AppError);
    }
  });
});

describe("isMutatingMethod", () => {
  it("covers the methods that change data", () => {
    expect(["POST", "put", "PATCH", "DELETE"].map(isMutatingMethod)).toEqual([true, true, true, true]);
    expect(["GET", "HEAD", "OPTIONS"].map(isMutatingMethod)).toEqual([false, false, false]);
  });
});
