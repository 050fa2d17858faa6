/**
 * Protocol section 12's digits, checked on what a user fetches: the one set
 * of checks of the integration crawl (tests/integration/support/slice-checks.ts)
 * and the browser crawl (e2e/gold-hidden.spec.ts). No dependencies, so both
 * vitest and Playwright load it.
 *
 * - JSON: every rate at most 3 decimals; a rate of a group (by_type,
 *   by_collection, an entry table's row) whose n is below `coarseBelowN` at
 *   most 2 (1 point); no exact comparison counts (a number under `b`, `c`,
 *   `p`, ...) and no slice reports or outcomes by key.
 * - CSV, TeX, page text: no fraction with more than 3 decimals, no
 *   percentage with more than 1.
 * - A React server component payload: its JSON chunks as JSON, its text as
 *   text.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The public group policy the checked release is disclosed under (lib/core/disclosure publicGroupPolicy): 1-point group rates below this n. */
export type DigitRules = { coarseBelowN: number };

/** A comparison's exact counts and p-values (section 12 allows verdicts and p buckets only): flagged when they hold a number. */
const COUNT_KEYS = new Set(["b", "c", "chi2", "p", "p_exact", "p_holm", "pExact", "pHolm"]);
/** Per-sample outcomes and the slices' reports: flagged whatever they hold. */
const REPORT_KEYS = new Set(["outcomes", "feedbackReport", "rankingReport", "feedback_report", "ranking_report"]);
const P_BUCKET_VALUES = new Set(["0.001", "0.01", "0.05"]);
const decimalsOf = (value: number) => (Number.isInteger(value) ? 0 : (String(value).split(".")[1]?.length ?? 99));

/** Every number of a JSON body within section 12's digits; problems are pushed as "where: what". */
export function checkJsonDigits(path: string, value: Json, problems: string[], rules: DigitRules, groupN: number | null = null, key = "", isInterval = false): void {
  if (typeof value === "number") {
    // Intervals are made from the shown value and n alone (they say nothing the shown value does not), so they may keep 3 decimals.
    const allowed = groupN !== null && groupN < rules.coarseBelowN && key !== "n" && !isInterval && !/_ci_(low|high)$/.test(key) ? 2 : 3;
    if (decimalsOf(value) > allowed) problems.push(`${path}: ${key} = ${value} has more than ${allowed} decimals`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item) => checkJsonDigits(path, item, problems, rules, groupN, key, isInterval));
    return;
  }
  if (value === null || typeof value !== "object") return;
  // The dev split's gold is public: its entries' numbers are exact by design.
  if ((value as Record<string, Json>).split === "dev") return;
  for (const [childKey, child] of Object.entries(value)) {
    // The OpenAPI document describes the maintainers' fields too: its keys are a schema, not numbers. A React payload's
    // router state has short keys of its own ("b", "c", "p" hold strings and arrays there).
    const isForbidden = REPORT_KEYS.has(childKey) || (COUNT_KEYS.has(childKey) && typeof child === "number");
    if (isForbidden && !path.includes("/api/openapi.json")) problems.push(`${path}: key "${childKey}"`);
    const isGroups = /^(by_type|byType|by_collection|byCollection)$/.test(childKey);
    if (isGroups && child !== null && typeof child === "object" && !Array.isArray(child)) {
      for (const [name, group] of Object.entries(child)) {
        const n = group !== null && typeof group === "object" && !Array.isArray(group) && typeof group.n === "number" ? group.n : null;
        checkJsonDigits(`${path} ${childKey}.${name}`, group, problems, rules, n, name, isInterval);
      }
      continue;
    }
    // A table row of a group (entry exports): its own n decides.
    const rowN = typeof (value as Record<string, Json>).n === "number" && ("type" in value || "collection" in value) ? ((value as Record<string, Json>).n as number) : groupN;
    checkJsonDigits(path, child, problems, rules, rowN, childKey, isInterval || childKey === "ci95");
  }
}

/**
 * CSV, TeX and page text: no number with more than 3 decimals; where rates are
 * shown in percent (`showsPercent`: pages and TeX), none from 1 up with more
 * than 1 (MRR stays a fraction of 3 decimals).
 */
export function checkTextDigits(path: string, body: string, problems: string[], showsPercent: boolean): void {
  for (const match of body.matchAll(/(?<![\w.-])\d+\.(\d+)(?![\w.-])/g)) {
    const decimals = match[1]!.length;
    if (P_BUCKET_VALUES.has(match[0])) continue;
    if (decimals > (showsPercent && !match[0].startsWith("0.") ? 1 : 3)) problems.push(`${path}: ${match[0]}`);
  }
}

/** A page's text as a reader sees it: without scripts, styles and tags (its React payload is checked as a payload). */
export function pageText(html: string): string {
  return html
    .replace(/<script\b[\s\S]*?<\/script>/gi, " ")
    .replace(/<style\b[\s\S]*?<\/style>/gi, " ")
    .replace(/<[^>]*>/g, " ");
}

/**
 * A React server component payload (the `RSC: 1` answer of a page): one row
 * per line, `ID:VALUE`. A JSON value (the props handed to components,
 * element trees) is checked as JSON and its strings as text; module and
 * hint rows (`ID:I[...]`, `ID:HL[...]`) name files, not numbers.
 */
export function checkRscDigits(path: string, payload: string, problems: string[], rules: DigitRules): void {
  for (const line of payload.split("\n")) {
    const match = /^[0-9a-f]+:(.*)$/s.exec(line);
    const value = match?.[1] ?? line;
    if (/^(I|HL)\[/.test(value)) continue;
    let parsed: Json | undefined;
    try {
      parsed = JSON.parse(value) as Json;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined) {
      checkTextDigits(path, value, problems, true);
      continue;
    }
    checkJsonDigits(path, parsed, problems, rules);
    for (const text of stringsOf(parsed)) checkTextDigits(path, text, problems, true);
  }
}

function stringsOf(value: Json): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsOf);
  if (value === null || typeof value !== "object") return [];
  return Object.values(value).flatMap(stringsOf);
}
