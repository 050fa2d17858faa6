import { describe, expect, it } from "vitest";
import { cacheablePageRequest, hasSessionCookie, publicPageTarget } from "./public-page-routing.mjs";

const get = (url: string, headers: Record<string, string> = {}) => ({ method: "GET", url, headers });

describe("publicPageTarget", () => {
  it("takes the public leaderboard pages, path and query exactly as sent", () => {
    expect(publicPageTarget("/leaderboard")).toEqual({ pathname: "/leaderboard", search: "" });
    expect(publicPageTarget("/leaderboard?track=closed&sort=system&dir=asc")).toEqual({ pathname: "/leaderboard", search: "?track=closed&sort=system&dir=asc" });
    expect(publicPageTarget("/leaderboard/matrix?track=open")).toEqual({ pathname: "/leaderboard/matrix", search: "?track=open" });
    expect(publicPageTarget("/leaderboard/types/Person")).toEqual({ pathname: "/leaderboard/types/Person", search: "" });
    expect(publicPageTarget("/entries/cm1abc_DEF-2?")).toEqual({ pathname: "/entries/cm1abc_DEF-2", search: "?" });
  });

  it("refuses every other path, RSC payload requests, earlier releases and other origins", () => {
    for (const target of [
      "/",
      "/account",
      "/submissions",
      "/leaderboard/",
      "/leaderboard/other",
      "/entries/a/b",
      "/entries/..%2Faccount",
      "/entries/a%20b",
      "/api/leaderboard",
      "/leaderboard?_rsc=abc",
      "/leaderboard?release=1.0&track=open",
      "//evil.example/leaderboard",
      "http://evil.example/leaderboard",
      "leaderboard",
    ]) {
      expect(publicPageTarget(target), target).toBeNull();
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
