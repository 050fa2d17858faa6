import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { buildLeaderboard } from "@/lib/core/leaderboard/build-leaderboard";
import { leaderboardExport, renderExport } from "../leaderboard/export-tables";
import { escapeLatex, toLatexTabular } from "./latex";
import { ZERO_NOISE, closeRanksView, entry, GOLD, GOLD_TYPES, RELEASE, reported, VERSION } from "@/testing/leaderboard/test-support";

function hasPdflatex(): boolean {
  try {
    execFileSync("pdflatex", ["--version"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Splits a tabular line into cells on unescaped "&" (escaped ones read "\&"). */
function cellsOf(line: string): string[] {
  return line.replace(/ \\\\$/, "").split(/(?<!\\) & /);
}

describe("escapeLatex", () => {
  it("escapes every special character", () => {
    expect(escapeLatex("50% of R&D_v2 costs $5 #1 {x} ~y^2 a\\b <c> |d|")).toBe(
      "50\\% of R\\&D\\_v2 costs \\$5 \\#1 \\{x\\} \\textasciitilde{}y\\textasciicircum{}2 a\\textbackslash{}b \\textless{}c\\textgreater{} \\textbar{}d\\textbar{}",
    );
  });

  it("turns line breaks into spaces", () => {
    expect(escapeLatex("two\nlines\r\nhere")).toBe("two lines here");
  });
});

describe("toLatexTabular", () => {
  const text = toLatexTabular({
    comment: "a test",
    columns: [
      { label: "System", align: "l" },
      { label: "Exact (%)", align: "r" },
    ],
    rows: [
      ["A & B", "38.9 [37.5, 40.3]"],
      ["[bracketed] name", "1.0"],
    ],
  });
  const lines = text.trimEnd().split("\n");

  it("is a booktabs tabular with one line per row", () => {
    expect(lines).toEqual([
      "% a test",
      "% Requires \\usepackage{booktabs}.",
      "\\begin{tabular}{lr}",
      "\\toprule",
      "System & Exact (\\%) \\\\",
      "\\midrule",
      "A \\& B & 38.9 [37.5, 40.3] \\\\",
      "{}[bracketed] name & 1.0 \\\\",
      "\\bottomrule",
      "\\end{tabular}",
    ]);
  });
});

describe("leaderboard LaTeX export", () => {
  const view = buildLeaderboard({
    release: RELEASE,
    goldSha256: GOLD,
    scorerVersion: VERSION,
    track: "open",
    type: null,
    entries: [
      entry({ id: "Sys_1 & co.", track: "open", metrics: { exact: 0.3, alias: 0.4, contain: 0.5, jaccard: 0.6 }, ci95: { exact: [0.25, 0.35], alias: [0.35, 0.45], contain: [0.45, 0.55], jaccard: [0.55, 0.65] } }),
      entry({ id: "100% baseline", track: "open", isBaseline: true, metrics: { exact: 0.1, alias: 0.2, contain: 0.3, jaccard: 0.4 }, ci95: { exact: [0.05, 0.15], alias: [0.15, 0.25], contain: [0.25, 0.35], jaccard: [0.35, 0.45] } }),
    ],
    goldTypes: GOLD_TYPES,
    minGroupN: 30,
    noise: ZERO_NOISE,
    reported: [reported({ id: "r", track: "open", metrics: { exact: 0.2702, alias: 0.333, contain: 0.333, jaccard: 0.3505 } })],
  });
  const rendered = renderExport(leaderboardExport(view, "https://irc-bench.example.org"), "tex");
  const lines = rendered.body.trimEnd().split("\n");
  const body = lines.slice(lines.indexOf("\\midrule") + 1, lines.indexOf("\\bottomrule"));
  const header = lines[lines.indexOf("\\toprule") + 1] ?? "";

  it("has a header and one body line per leaderboard row, each with the same number of cells", () => {
    expect(body).toHaveLength(view.rows.length);
    expect(cellsOf(header)).toEqual(["Rank", "System", "Exact (\\%)", "Alias (\\%)", "Contain (\\%)", "Jaccard (\\%)"]);
    for (const line of [header, ...body]) {
      expect(line.endsWith(" \\\\")).toBe(true);
      expect(cellsOf(line)).toHaveLength(6);
    }
    expect(lines[2]).toBe("\\begin{tabular}{rlrrrr}");
  });

  it("escapes names and shows values with intervals as on the page", () => {
    expect(body[0]).toBe("1 & Sys\\_1 \\& co. & 30.0 [25.0, 35.0] & 40.0 [35.0, 45.0] & 50.0 [45.0, 55.0] & 60.0 [55.0, 65.0] \\\\");
    expect(body[1]).toBe("– & paper r (reported) & 27.0 & 33.3 & 33.3 & 35.0 \\\\");
    expect(body[2]).toBe("2 & 100\\% baseline (baseline) & 10.0 [5.0, 15.0] & 20.0 [15.0, 25.0] & 30.0 [25.0, 35.0] & 40.0 [35.0, 45.0] \\\\");
    expect(rendered.filename).toBe("irc-bench-1.0-test-open-leaderboard.tex");
  });

  it("names the view's public address in its comment line", () => {
    expect(lines[0]?.startsWith("% IRC-Bench leaderboard, ")).toBe(true);
    expect(lines[0]?.endsWith(" https://irc-bench.example.org/leaderboard?track=open")).toBe(true);
  });

  it("says how the intervals are made and that reported results are on the whole test split", () => {
    expect(lines[0]).toContain(
      "rates in percent on the ranking slice. Each 95% interval is made from the shown value v and the slice's n alone: the 2.5% and 97.5% quantiles of " +
        "Binomial(n, v) plus the public noise, divided by n, widened where needed so that it always contains v (protocol §12).",
    );
    expect(lines[0]).toContain("Public numbers are computed from counts perturbed by seeded noise");
    expect(lines[0]).toContain("they are on the whole test split, not the ranking slice, and have no interval, rank or significance test");
    expect(lines[0]).not.toContain("bootstrap");
  });

  it.skipIf(!hasPdflatex())("compiles with pdflatex", () => {
    const dir = mkdtempSync(path.join(tmpdir(), "latex-"));
    const document = `\\documentclass{article}\n\\usepackage[T1]{fontenc}\n\\usepackage[utf8]{inputenc}\n\\usepackage{booktabs}\n\\begin{document}\n${rendered.body}\\end{document}\n`;
    writeFileSync(path.join(dir, "table.tex"), document);
    execFileSync("pdflatex", ["-interaction=nonstopmode", "-halt-on-error", "table.tex"], { cwd: dir, stdio: "ignore" });
  });
});

describe("leaderboard LaTeX export: rank intervals", () => {
  const view = closeRanksView();
  const lines = renderExport(leaderboardExport(view, "https://irc-bench.example.org"), "tex").body.trimEnd().split("\n");
  const body = lines.slice(lines.indexOf("\\midrule") + 1, lines.indexOf("\\bottomrule"));

  it("writes the rank as the pages show it: 1–2 when the ends differ, 3 when they agree", () => {
    expect(body.map((line) => cellsOf(line)[0])).toEqual(["1–2", "1–2", "3"]);
  });
});
