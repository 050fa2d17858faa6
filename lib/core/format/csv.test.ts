import { describe, expect, it } from "vitest";
import { buildLeaderboard } from "@/lib/core/leaderboard/build-leaderboard";
import { parseCsv } from "@/testing/parse-csv";
import { toCsv } from "./csv";
import { leaderboardExport, renderExport } from "../leaderboard/export-tables";
import { ZERO_NOISE, closeRanksView, entry, GOLD, GOLD_TYPES, RELEASE, reported, VERSION } from "@/testing/leaderboard/test-support";

describe("toCsv / parseCsv", () => {
  it("quotes what needs quoting and parses it back", () => {
    const columns = [
      { key: "name", label: "name" },
      { key: "value", label: "value" },
      { key: "flag", label: "flag" },
      { key: "missing", label: "missing" },
    ];
    const text = toCsv(columns, [
      { name: 'Team "Q", Inc.', value: 0.1 + 0.2, flag: true, missing: null },
      { name: "two\nlines", value: 1 / 3, flag: false, missing: undefined },
    ]);
    expect(text).toBe('name,value,flag,missing\r\n"Team ""Q"", Inc.",0.30000000000000004,true,\r\n"two\nlines",0.3333333333333333,false,\r\n');
    expect(parseCsv(text)).toEqual([
      ["name", "value", "flag", "missing"],
      ['Team "Q", Inc.', "0.30000000000000004", "true", ""],
      ["two\nlines", "0.3333333333333333", "false", ""],
    ]);
  });

  it("defuses text a spreadsheet would run as a formula, never numbers", () => {
    const text = toCsv([{ key: "a", label: "a" }, { key: "b", label: "b" }], [{ a: "=HYPERLINK(1)", b: -0.5 }, { a: "@sum", b: 2 }]);
    expect(parseCsv(text)).toEqual([["a", "b"], ["'=HYPERLINK(1)", "-0.5"], ["'@sum", "2"]]);
  });

  it("parses LF-only input and a last line without a line end", () => {
    expect(parseCsv("a,b\n1,2")).toEqual([["a", "b"], ["1", "2"]]);
  });
});

describe("leaderboard CSV export", () => {
  const awkward = entry({
    id: "awkward, \"quoted\" entry",
    track: "open",
    metrics: { exact: 0.1 + 0.2, alias: 1 / 3, contain: 2 / 3, jaccard: 0.7000000000000001 },
    ci95: { exact: [1e-17, 0.5], alias: [0.123456789012345, 0.5432109876543211], contain: [0.6, 0.7], jaccard: [0.65, 0.75] },
  });
  const view = buildLeaderboard({
    release: RELEASE,
    goldSha256: GOLD,
    scorerVersion: VERSION,
    track: "open",
    type: null,
    entries: [awkward],
    goldTypes: GOLD_TYPES,
    minGroupN: 30,
    noise: ZERO_NOISE,
    reported: [reported({ id: "r", track: "open", metrics: { exact: 0.2702, alias: 0.333 } })],
  });
  const SITE = "https://irc-bench.example.org";
  const rendered = renderExport(leaderboardExport(view, SITE), "csv");
  const [header = [], ...rows] = parseCsv(rendered.body);
  const column = (name: string) => header.indexOf(name);

  it("round-trips every number exactly", () => {
    const row = rows.find((cells) => cells[column("kind")] === "submission") ?? [];
    expect(row[column("system")]).toBe('awkward, "quoted" entry');
    expect(Number(row[column("exact")])).toBe(0.1 + 0.2);
    expect(Number(row[column("exact_ci_low")])).toBe(1e-17);
    expect(Number(row[column("alias")])).toBe(1 / 3);
    expect(Number(row[column("alias_ci_low")])).toBe(0.123456789012345);
    expect(Number(row[column("alias_ci_high")])).toBe(0.5432109876543211);
    expect(Number(row[column("contain")])).toBe(2 / 3);
    expect(Number(row[column("jaccard")])).toBe(0.7000000000000001);
    expect(Number(row[column("place_alias")])).toBe(1 / 3);
    expect(Number(row[column("person_n")])).toBe(30);
    expect(row[column("rank")]).toBe("1");
  });

  it("links each entry absolutely, on the site's public origin, and leaves reported rows without a link", () => {
    const submission = rows.find((cells) => cells[column("kind")] === "submission") ?? [];
    expect(submission[column("entry_url")]).toBe("https://irc-bench.example.org/entries/awkward%2C%20%22quoted%22%20entry");
    const paper = rows.find((cells) => cells[column("kind")] === "reported") ?? [];
    expect(paper[column("entry_url")]).toBe("");
  });

  it("writes reported rows without intervals or rank", () => {
    const row = rows.find((cells) => cells[column("kind")] === "reported") ?? [];
    expect(Number(row[column("exact")])).toBe(0.2702);
    expect(row[column("exact_ci_low")]).toBe("");
    expect(row[column("contain")]).toBe("");
    expect(row[column("rank")]).toBe("");
    expect(row[column("source")]).toBe("a paper, Table 4");
  });

  it("has one line per row and a header naming every column", () => {
    expect(rows).toHaveLength(2);
    expect(header.slice(0, 12)).toEqual(["rank", "rank_lo", "rank_hi", "kind", "system", "team", "track", "split_part", "n", "exact", "exact_ci_low", "exact_ci_high"]);
    expect(rows.every((cells) => cells.length === header.length)).toBe(true);
    expect(rendered.filename).toBe("irc-bench-1.0-test-open-leaderboard.csv");
    expect(rendered.contentType).toBe("text/csv; charset=utf-8");
  });

  it("writes the same rows as JSON", () => {
    const json = JSON.parse(renderExport(leaderboardExport(view, SITE), "json").body) as { rows: Record<string, unknown>[]; columns: string[]; rank_metric: string; url: string };
    expect(json.rank_metric).toBe("alias");
    expect(json.url).toBe("https://irc-bench.example.org/leaderboard?track=open");
    expect(json.columns).toEqual(header);
    expect(json.rows.find((row) => row.kind === "submission")?.alias_ci_high).toBe(0.5432109876543211);
  });
});

describe("leaderboard CSV export: rank interval, mark and samples", () => {
  const view = closeRanksView([reported({ id: "r", track: "open", metrics: { exact: 0.2702, alias: 0.333 } })]);
  const [header = [], ...rows] = parseCsv(renderExport(leaderboardExport(view, "https://irc-bench.example.org"), "csv").body);
  const cell = (system: string, name: string) => rows.find((cells) => cells[header.indexOf("system")] === system)?.[header.indexOf(name)];

  it("gives each entry's rank interval as rank_lo and rank_hi, empty for reported rows", () => {
    expect([cell("close-a", "rank_lo"), cell("close-a", "rank_hi")]).toEqual(["1", "2"]);
    expect([cell("close-b", "rank_lo"), cell("close-b", "rank_hi")]).toEqual(["1", "2"]);
    expect([cell("base", "rank_lo"), cell("base", "rank_hi")]).toEqual(["3", "3"]);
    expect([cell("paper r", "rank_lo"), cell("paper r", "rank_hi")]).toEqual(["", ""]);
  });

  it("fills the p bucket of the mark against the best baseline", () => {
    expect(cell("close-a", "vs_best_baseline")).toBe("better");
    expect(cell("close-a", "vs_best_baseline_p_holm")).toBe("< 0.001");
    expect(cell("base", "vs_best_baseline_p_holm")).toBe("");
  });

  it("says which samples each row is on: reported results the whole test split, the rest the ranking slice", () => {
    expect(cell("close-a", "split_part")).toBe("ranking slice");
    expect(cell("base", "split_part")).toBe("ranking slice");
    expect(cell("paper r", "split_part")).toBe("whole test split");
  });
});
