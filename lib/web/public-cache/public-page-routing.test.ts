import { describe, expect, it } from "vitest";
import { cacheablePageRequest, canonicalPagePath, hasSessionCookie } from "./public-page-routing.mjs";

const get = (url: string, headers: Record<string, string> = {}) => ({ method: "GET", url, headers });

describe("canonicalPagePath", () => {
  it("keeps the public leaderboard pages, with their query sorted by name", () => {
    expect(canonicalPagePath("/leaderboard")).toBe("/leaderboard");
    expect(canonicalPagePath("/leaderboard?track=closed&sort=system&dir=asc")).toBe("/leaderboard?dir=asc&sort=system&track=closed");
    expect(canonicalPagePath("/leaderboard/matrix?track=open")).toBe("/leaderboard/matrix?track=open");
    expect(canonicalPagePath("/leaderboard/types/Person")).toBe("/leaderboard/types/Person");
    expect(canonicalPagePath("/entries/cm1abc_DEF-2")).toBe("/entries/cm1abc_DEF-2");
  });

  it("keeps repeated parameters in their order (the page reads the first)", () => {
    expect(canonicalPagePath("/leaderboard?track=open&a=1&track=closed")).toBe("/leaderboard?a=1&track=open&track=closed");
  });

  it("refuses every other path, RSC payload requests and other origins", () => {
    for (const target of [
      "/",
      "/account",
      "/submissions",
      "/leaderboard/",
      "/leaderboard/other",
      "/entries/a/b",
      "/entries/..%2Faccount",
      "/api/leaderboard",
      "/leaderboard?_rsc=abc",
      "/leaderboard?release=1.0&track=open",
      "//evil.example/leaderboard",
      "http://evil.example/leaderboard",
      "leaderboard",
    ]) {
      expect(canonicalPagePath(target), target).toBeNull();
    }
  });
});

describe("hasSessionCookie", () => {
  it("sees next-auth's session cookie under each of its names and in chunks", () => {
    expect(hasSessionCookie("next-auth.session-token=abc")).toBe(true);
    expect(hasSessionCookie("theme=dark; __Secure-next-auth.session-token=abc")).toBe(true);
    expect(hasSessionCookie("next-auth.session-token.0=abc; next-auth.session-token.1=def")).toBe(true);
    expect(hasSessionCookie(["a=1", "next-auth.session-token=x"])).toBe(true);
  });

  it("ignores other cookies, including next-auth's CSRF and callback cookies", () => {
    expect(hasSessionCookie(undefined)).toBe(false);
    expect(hasSessionCookie("")).toBe(false);
    expect(hasSessionCookie("next-auth.csrf-token=abc; next-auth.callback-url=%2F")).toBe(false);
  });
});

describe("cacheablePageRequest", () => {
  it("routes a GET or HEAD of a public page to the cache", () => {
    expect(cacheablePageRequest(get("/leaderboard?track=open"))).toBe("/leaderboard?track=open");
    expect(cacheablePageRequest({ method: "HEAD", url: "/leaderboard", headers: {} })).toBe("/leaderboard");
    expect(cacheablePageRequest(get("/leaderboard", { cookie: "next-auth.csrf-token=abc" }))).toBe("/leaderboard");
  });

  it("routes a signed-in reader's request to the same shared body: the page names nobody", () => {
    expect(cacheablePageRequest(get("/leaderboard?track=open", { cookie: "next-auth.session-token=abc" }))).toBe("/leaderboard?track=open");
    expect(cacheablePageRequest(get("/entries/abc", { cookie: "__Secure-next-auth.session-token.0=abc" }))).toBe("/entries/abc");
    expect(cacheablePageRequest(get("/leaderboard", { authorization: "Bearer irc_x" }))).toBe("/leaderboard");
  });

  it("never routes client-side navigations, server actions or other methods", () => {
    expect(cacheablePageRequest(get("/leaderboard", { rsc: "1" }))).toBeNull();
    expect(cacheablePageRequest(get("/leaderboard", { "next-router-prefetch": "1" }))).toBeNull();
    expect(cacheablePageRequest(get("/leaderboard", { "next-action": "abc" }))).toBeNull();
    expect(cacheablePageRequest({ method: "POST", url: "/leaderboard", headers: {} })).toBeNull();
  });
});
