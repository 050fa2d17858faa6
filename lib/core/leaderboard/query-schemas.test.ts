import { describe, expect, it } from "vitest";
import { AppError } from "@/lib/core/errors";
import { parseQuery } from "@/lib/core/input/parse-input";
import { entriesQuerySchema, leaderboardExportQuerySchema, leaderboardQuerySchema } from "./query-schemas";

function problemsOf(run: () => unknown): string[] {
  try {
    run();
  } catch (error) {
    if (error instanceof AppError) {
      expect(error.code).toBe("validation");
      return error.problems.map((problem) => problem.message);
    }
    throw error;
  }
  return [];
}

describe("parseApiQuery", () => {
  it("defaults the track and reads entity types by name or slug", () => {
    const page = { limit: 100, offset: 0, scope: "primary" };
    expect(parseQuery(leaderboardQuerySchema, new URLSearchParams(""))).toEqual({ track: "open", ...page });
    expect(parseQuery(leaderboardQuerySchema, new URLSearchParams("track=unified&type=military-unit"))).toEqual({ track: "unified", type: "Military Unit", ...page });
    expect(parseQuery(leaderboardQuerySchema, new URLSearchParams("type=Military%20Unit&limit=1000&offset=50"))).toEqual({ track: "open", type: "Military Unit", limit: 1000, offset: 50, scope: "primary" });
    expect(parseQuery(leaderboardExportQuerySchema, new URLSearchParams("format=tex"))).toEqual({ track: "open", format: "tex", scope: "primary" });
    expect(parseQuery(leaderboardQuerySchema, new URLSearchParams("scope=all"))).toEqual({ track: "open", limit: 100, offset: 0, scope: "all" });
  });

  it("names every bad parameter", () => {
    expect(problemsOf(() => parseQuery(leaderboardQuerySchema, new URLSearchParams("track=both")))).toEqual([
      'query parameter "track" must be one of open, closed, unified',
    ]);
    const [typeProblem] = problemsOf(() => parseQuery(leaderboardQuerySchema, new URLSearchParams("type=Planet")));
    expect(typeProblem).toMatch(/^query parameter "type" unknown entity type "Planet"; use one of "Place"/);
    expect(problemsOf(() => parseQuery(leaderboardQuerySchema, new URLSearchParams("trak=open&page=2")))).toEqual([
      'unknown query parameters "trak", "page"',
    ]);
    expect(problemsOf(() => parseQuery(leaderboardQuerySchema, new URLSearchParams("limit=0&offset=-1")))).toEqual([
      'query parameter "limit" must be at least 1',
      'query parameter "offset" must be at least 0',
    ]);
    expect(problemsOf(() => parseQuery(leaderboardQuerySchema, new URLSearchParams("limit=5000")))).toEqual(['query parameter "limit" must be at most 1000']);
    expect(problemsOf(() => parseQuery(leaderboardExportQuerySchema, new URLSearchParams("limit=5")))).toEqual(['unknown query parameter "limit"']);
    expect(problemsOf(() => parseQuery(leaderboardQuerySchema, new URLSearchParams("track=open&track=closed")))).toEqual([
      'query parameter "track" is given more than once',
    ]);
    expect(problemsOf(() => parseQuery(entriesQuerySchema, new URLSearchParams("split=train&kind=some")))).toEqual([
      'query parameter "split" must be dev or test',
      'query parameter "kind" must be one of all, submissions, baselines',
    ]);
  });
});
