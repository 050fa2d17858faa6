/**
 * A LaTeX `tabular` with booktabs rules (\toprule, \midrule, \bottomrule) for
 * pasting into a paper: one header row, one line per table row, cells escaped
 * so any system name typesets as written. Needs \usepackage{booktabs}.
 */

export type LatexColumn = { label: string; align: "l" | "r" | "c" };

export type LatexTable = {
  /** A comment line above the table (what it is, which release). */
  comment?: string;
  columns: readonly LatexColumn[];
  rows: readonly (readonly string[])[];
};

const REPLACEMENTS: Record<string, string> = {
  "\\": "\\textbackslash{}",
  "&": "\\&",
  "%": "\\%",
  $: "\\$",
  "#": "\\#",
  _: "\\_",
  "{": "\\{",
  "}": "\\}",
  "~": "\\textasciitilde{}",
  "^": "\\textasciicircum{}",
  "<": "\\textless{}",
  ">": "\\textgreater{}",
  "|": "\\textbar{}",
};

/** Escapes the characters TeX treats specially; line breaks become spaces. */
export function escapeLatex(text: string): string {
  return text.replace(/[\\&%$#_{}~^<>|]/g, (char) => REPLACEMENTS[char] ?? char).replace(/[\r\n]+/g, " ");
}

/** An escaped cell; a leading "[" is shielded so the previous row's \\ does not read it as an optional length. */
function cell(text: string): string {
  const escaped = escapeLatex(text);
  return escaped.startsWith("[") ? `{}${escaped}` : escaped;
}

function line(cells: readonly string[]): string {
  return `${cells.map(cell).join(" & ")} \\\\`;
}

export function toLatexTabular(table: LatexTable): string {
  const width = table.columns.length;
  const out: string[] = [];
  if (table.comment) {
    out.push(`% ${table.comment.replace(/[\r\n]+/g, " ")}`);
  }
  out.push("% Requires \\usepackage{booktabs}.");
  out.push(`\\begin{tabular}{${table.columns.map((column) => column.align).join("")}}`);
  out.push("\\toprule");
  out.push(line(table.columns.map((column) => column.label)));
  out.push("\\midrule");
  for (const row of table.rows) {
    const cells = Array.from({ length: width }, (_, index) => row[index] ?? "");
    out.push(line(cells));
  }
  out.push("\\bottomrule");
  out.push("\\end{tabular}");
  return `${out.join("\n")}\n`;
}
