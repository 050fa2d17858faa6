import { describe, expect, it } from "vitest";
import { cachedJsonResponse, etagOf, matchesIfNoneMatch, PUBLIC_CACHE_CONTROL } from "./cached-response";

describe("matchesIfNoneMatch", () => {
  it("compares weakly and accepts lists and *", () => {
    expect(matchesIfNoneMatch('"abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('W/"abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"x", "abc"', '"abc"')).toBe(true);
    expect(matchesIfNoneMatch("*", '"abc"')).toBe(true);
    expect(matchesIfNoneMatch('"abd"', '"abc"')).toBe(false);
    expect(matchesIfNoneMatch(null, '"abc"')).toBe(false);
  });
});

describe("cachedJsonResponse", () => {
  it("serves the body with caching headers, and 304 when the client has it", async () => {
    const body = JSON.stringify({ ok: true });
    const first = cachedJsonResponse(new Request("http://local/api"), body);
    expect(first.status).toBe(200);
    expect(first.headers.get("cache-control")).toBe(PUBLIC_CACHE_CONTROL);
    expect(first.headers.get("etag")).toBe(etagOf(body));
    expect(await first.text()).toBe(body);
    const second = cachedJsonResponse(new Request("http://local/api", { headers: { "If-None-Match": etagOf(body) } }), body);
    expect(second.status).toBe(304);
    expect(await second.text()).toBe("");
  });
});
