import { describe, expect, it, vi } from "vitest";
import { cachedBodyRequest } from "./cached-body-request";

// No production build here: page keys carry the build id "development".
vi.hoisted(() => {
  process.env.NEXT_DIST_DIR = ".next-none-in-this-test";
});

/**
 * Which requests the web server's fast path may answer from the public body
 * cache, and under which key (the route handlers store under the same keys).
 */

function keyOf(url: string, headers: Record<string, string> = {}, method = "GET"): string | null {
  const wanted = cachedBodyRequest({ method, url, headers });
  return wanted === null || wanted.kind === "redirect" ? null : wanted.key;
}

describe("cachedBodyRequest", () => {
  it("takes page reads under their canonical path, GET and HEAD only", () => {
    expect(keyOf("/leaderboard")).toBe("page:development:/leaderboard");
    expect(keyOf("/leaderboard?q=a+b&track=closed", {}, "HEAD")).toBe("page:development:/leaderboard?q=a+b&track=closed");
    expect(keyOf("/entries/abc123")).toBe("page:development:/entries/abc123");
    expect(keyOf("/leaderboard", {}, "POST")).toBeNull();
  });

  it("answers another spelling of a page with a redirect to its canonical address, and a page that does not exist not at all", () => {
    const redirect = (url: string) => cachedBodyRequest({ method: "GET", url, headers: {} });
    expect(redirect("/leaderboard?track=closed&q=a%20b")).toEqual({ kind: "redirect", location: "/leaderboard?q=a+b&track=closed" });
    expect(redirect("/leaderboard?track=open&utm_source=x")).toEqual({ kind: "redirect", location: "/leaderboard" });
    expect(redirect("/entries/abc123?x=1")).toEqual({ kind: "redirect", location: "/entries/abc123" });
    expect(redirect("/leaderboard/types/Person?track=closed")).toEqual({ kind: "redirect", location: "/leaderboard/types/person?track=closed" });
    expect(redirect("/leaderboard/types/nothing")).toBeNull();
    expect(redirect("/leaderboard/matrix?type=nothing")).toBeNull();
  });

  it("takes a signed-in reader's page read under the same key: the shared body names nobody", () => {
    expect(keyOf("/leaderboard", { cookie: "theme=dark; next-auth.session-token=abc" })).toBe("page:development:/leaderboard");
    expect(keyOf("/entries/abc123", { cookie: "__Secure-next-auth.session-token.0=abc" })).toBe("page:development:/entries/abc123");
    expect(keyOf("/leaderboard", { authorization: "Bearer irc_x" })).toBe("page:development:/leaderboard");
  });

  it("never takes a client-side navigation, whoever sends it, and remembers nothing across them", () => {
    expect(keyOf("/leaderboard")).toBe("page:development:/leaderboard");
    expect(keyOf("/leaderboard", { rsc: "1" })).toBeNull();
    expect(keyOf("/leaderboard", { "next-router-prefetch": "1", cookie: "next-auth.session-token=abc" })).toBeNull();
    expect(keyOf("/leaderboard")).toBe("page:development:/leaderboard");
    expect(keyOf("/leaderboard?_rsc=abc")).toBeNull();
    expect(keyOf("/leaderboard/other")).toBeNull();
  });

  it("takes the public API's reads under the keys of the parsed query, defaults filled in", () => {
    expect(keyOf("/api/leaderboard?track=open")).toBe("leaderboard:open::primary::0:100");
    expect(keyOf("/api/leaderboard")).toBe("leaderboard:open::primary::0:100");
    expect(keyOf("/api/leaderboard?limit=10&offset=20&type=person&scope=all&track=closed", {}, "HEAD")).toBe("leaderboard:closed:Person:all::20:10");
    // The fact-sheet and tier filters are part of the key, in one order whatever the query's.
    expect(keyOf("/api/leaderboard?tier=documented&weights=yes")).toBe("leaderboard:open::primary:weights=yes&tier=documented:0:100");
    expect(keyOf("/api/entries?split=dev")).toBe("entries::dev:all");
    expect(keyOf("/api/entries/abc_123-x")).toBe("entry:abc_123-x");
  });

  it("takes an API read whatever credentials it carries: those routes read none", () => {
    expect(keyOf("/api/leaderboard?track=open", { authorization: "Bearer irc_x", cookie: "next-auth.session-token=abc" })).toBe(
      "leaderboard:open::primary::0:100",
    );
  });

  it("leaves every query the route rejects, and every other path, to the route", () => {
    expect(keyOf("/api/leaderboard?track=none")).toBeNull();
    expect(keyOf("/api/leaderboard?limit=0")).toBeNull();
    expect(keyOf("/api/leaderboard?unknown=1")).toBeNull();
    expect(keyOf("/api/entries/abc?x=1")).toBeNull();
    expect(keyOf("/api/entries/a%20b")).toBeNull();
    expect(keyOf("/api/entries/abc/export")).toBeNull();
    expect(keyOf("/api/leaderboard/export?track=open")).toBeNull();
    expect(keyOf("/api/x/../leaderboard?track=open")).toBeNull();
    expect(keyOf("/api/leaderboard/")).toBeNull();
    expect(keyOf("/api/leaderboard?track=open", {}, "DELETE")).toBeNull();
    expect(keyOf("/api/public-page?path=%2Fleaderboard")).toBeNull();
  });
});
