import { describe, expect, it } from "vitest";
import { UNMATCHED_ROUTE, createRouteMatcher, pathnameOf } from "./route-label";

// The shapes of Next.js's .next/routes-manifest.json entries.
const match = createRouteMatcher(
  [
    { page: "/", regex: "^/(?:/)?$" },
    { page: "/api/health", regex: "^/api/health(?:/)?$" },
    { page: "/submissions/new", regex: "^/submissions/new(?:/)?$" },
  ],
  [
    { page: "/submissions/[id]", regex: "^/submissions/([^/]+?)(?:/)?$" },
    { page: "/api/submissions/[id]/samples", regex: "^/api/submissions/([^/]+?)/samples(?:/)?$" },
  ],
);

describe("route label", () => {
  it("names static routes by themselves, with or without a trailing slash", () => {
    expect(match("/")).toBe("/");
    expect(match("/api/health")).toBe("/api/health");
    expect(match("/api/health/")).toBe("/api/health");
  });

  it("prefers a static route over a dynamic one that also matches", () => {
    expect(match("/submissions/new")).toBe("/submissions/new");
  });

  it("names dynamic routes by their pattern, never by the id", () => {
    expect(match("/submissions/cm1abc")).toBe("/submissions/[id]");
    expect(match("/api/submissions/cm1abc/samples")).toBe("/api/submissions/[id]/samples");
  });

  it("puts Next.js assets in one label and anything else in 'unmatched'", () => {
    expect(match("/_next/static/chunks/main.js")).toBe("/_next/*");
    expect(match("/wp-login.php")).toBe(UNMATCHED_ROUTE);
    expect(match("/submissions/a/b")).toBe(UNMATCHED_ROUTE);
  });

  it("drops the query string", () => {
    expect(pathnameOf("/api/leaderboard?track=open")).toBe("/api/leaderboard");
    expect(pathnameOf("/x")).toBe("/x");
    expect(pathnameOf(undefined)).toBe("");
  });
});
