import { describe, expect, it } from "vitest";
import { buildLeaderboard } from "./build-leaderboard";
import type { LeaderboardView } from "./leaderboard-types";
import { applyTableQuery, PAGE_SIZE, resolveSort, sortRows, tableQuerySchema } from "./table-query";
import { ZERO_NOISE, entry, GOLD, GOLD_TYPES, RELEASE, reported, VERSION } from "@/testing/leaderboard/test-support";

function viewOf(count: number): LeaderboardView {
  // Entry i has alias 0.01 * i (so entry-119 is best), a parameter count only on even i.
  const entries = Array.from({ length: count }, (_, i) =>
    entry({
      id: `entry-${String(i).padStart(3, "0")}`,
      track: "open",
      metrics: { exact: 0.005 * i, alias: 0.01 * i, contain: 0.01 * i, jaccard: 0.01 * i },
      ci95: { alias: [0.01 * i - 0.02, 0.01 * i + 0.02] },
      parameterCount: i % 2 === 0 ? i * 1e9 : null,
    }),
  );
  return buildLeaderboard({
    release: RELEASE,
    goldSha256: GOLD,
    scorerVersion: VERSION,
    track: "open",
    type: null,
    entries,
    goldTypes: GOLD_TYPES,
    minGroupN: 30,
    noise: ZERO_NOISE,
    reported: [reported({ id: "paper", track: "open", metrics: { alias: 0.505 } })],
  });
}

const query = (values: Record<string, string>) => tableQuerySchema.parse(values);

describe("applyTableQuery", () => {
  const view = viewOf(120);

  it("defaults to the ranking metric, best first, 50 rows a page", () => {
    const page = applyTableQuery(view, query({}));
    expect(page.sort).toEqual({ id: "alias", desc: true });
    expect(page.rows).toHaveLength(PAGE_SIZE);
    expect(page.rows[0]?.key).toBe("entry-119");
    expect(page).toMatchObject({ total: 121, matching: 121, page: 1, pageCount: 3 });
  });

  it("serves later pages and clamps a page past the end", () => {
    expect(applyTableQuery(view, query({ page: "3" })).rows).toHaveLength(21);
    const past = applyTableQuery(view, query({ page: "9" }));
    expect(past.page).toBe(3);
    expect(applyTableQuery(view, query({ page: "-2" })).page).toBe(1);
  });

  it("sorts by any column in either direction, names ascending first", () => {
    expect(applyTableQuery(view, query({ sort: "system" })).rows[0]?.system).toBe("entry-000");
    expect(applyTableQuery(view, query({ sort: "system", dir: "desc" })).rows[0]?.system).toBe("paper paper");
    expect(applyTableQuery(view, query({ sort: "exact", dir: "asc" })).rows[0]?.key).toBe("entry-000");
    expect(applyTableQuery(view, query({ sort: "type:Person" })).rows[0]?.key).toBe("entry-119");
  });

  it("falls back to the default sort for a column the view does not have", () => {
    expect(resolveSort(view, { sort: "hit@1", dir: "asc" })).toEqual({ id: "alias", desc: true });
    expect(resolveSort(view, { sort: "significance", dir: undefined })).toEqual({ id: "alias", desc: true });
  });

  it("puts rows without a value last in both directions", () => {
    const descending = applyTableQuery(view, query({ sort: "params", page: "3" })).rows;
    const ascending = applyTableQuery(view, query({ sort: "params", dir: "asc", page: "3" })).rows;
    expect(descending.at(-1)?.parameterCount).toBeNull();
    expect(ascending.at(-1)?.parameterCount).toBeNull();
    expect(applyTableQuery(view, query({ sort: "params", dir: "asc" })).rows[0]?.parameterCount).toBe(0);
    expect(applyTableQuery(view, query({ sort: "rank", dir: "desc" })).rows.at(0)?.rank).not.toBeNull();
  });

  it("filters before paging and reports a bad parameter bound", () => {
    const filtered = applyTableQuery(view, query({ minParams: "100B" }));
    // Even i from 100 to 118 have parameter counts >= 100B: 10 rows.
    expect(filtered.matching).toBe(10);
    expect(filtered.pageCount).toBe(1);
    const bad = applyTableQuery(view, query({ minParams: "lots" }));
    expect(bad.rangeProblem).toBe("Write a count like 110M, 8B or 1.5e9.");
    expect(bad.matching).toBe(121);
    expect(applyTableQuery(view, query({ q: "paper" })).rows.map((row) => row.kind)).toEqual(["reported"]);
  });
});

describe("compactRow", () => {
  it("rounds a page's numbers and sends per-type numbers only when shown", () => {
    const view = viewOf(3);
    const hidden = applyTableQuery(view, query({}));
    const top = hidden.rows.find((row) => row.key === "entry-002");
    expect(top?.metrics.alias).toEqual({ value: 0.02, ci95: [0, 0.04] });
    expect(top?.metrics.exact).toEqual({ value: 0.01, ci95: null });
    expect(top?.byType).toBeNull();
    const shown = applyTableQuery(view, query({ types: "show" }));
    // entry-002: alias 0.02 shifted by -0.02 for Person (type index 2): 0, not 2e-18.
    expect(shown.rows.find((row) => row.key === "entry-002")?.byType?.Person).toEqual({ n: 30, value: 0, ci95: [-0.02, 0.02], isSuppressed: false });
    expect(view.rows.find((row) => row.key === "entry-002")?.metrics.alias?.ci95?.[0]).toBeCloseTo(0, 12);
  });
});

describe("sortRows", () => {
  it("keeps the view's order among ties", () => {
    const rows = viewOf(4).rows;
    const sorted = sortRows(rows, { id: "n", desc: true });
    // Every entry has n = 280 and the reported row none: entries keep their order, the reported row goes last.
    expect(sorted.map((row) => row.key)).toEqual([...rows.filter((row) => row.kind !== "reported"), ...rows.filter((row) => row.kind === "reported")].map((row) => row.key));
  });
});
