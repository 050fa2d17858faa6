import type { z } from "zod";

/**
 * A zod issue as a sentence a person can act on, naming the field:
 * `"systemName" is required`, `"limit" must be a number`, not zod's own
 * "Invalid input: expected string, received undefined". A message written in
 * a schema (`.min(2, "at least 2 characters")`) is kept and put after the name.
 */

type Issue = z.core.$ZodIssue;

const ARTICLE_TYPES: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  bigint: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  array: "a list",
  date: "a date",
  null: "null",
};

/** `systemName`, `acknowledge[2]`, `byType.Place`. */
export function fieldName(path: readonly PropertyKey[]): string {
  let name = "";
  for (const key of path) {
    if (typeof key === "number") name += `[${key}]`;
    else name += name === "" ? String(key) : `.${String(key)}`;
  }
  return name;
}

/** zod's built-in messages start like this; anything else was written for this schema. */
const BUILT_IN_MESSAGE = /^(Invalid|Too (big|small)|Unrecognized key|Expected|Required)/;

function sizeUnit(origin: string): string {
  if (origin === "string") return " characters";
  if (origin === "array" || origin === "set") return " items";
  return "";
}

function builtInSentence(issue: Issue): string | null {
  switch (issue.code) {
    case "invalid_type": {
      // zod reports no input by default; its built-in message ends with what it received.
      if (issue.input === undefined && /received undefined$/.test(issue.message)) return "is required";
      return `must be ${ARTICLE_TYPES[issue.expected] ?? issue.expected}`;
    }
    case "too_small": {
      const unit = sizeUnit(issue.origin);
      if (unit === " characters" && Number(issue.minimum) === 1) return "must not be empty";
      return `must be at least ${String(issue.minimum)}${unit}${unit === "" ? "" : " long"}`.replace(" items long", " items");
    }
    case "too_big": {
      const unit = sizeUnit(issue.origin);
      return `must be at most ${String(issue.maximum)}${unit}${unit === "" ? "" : " long"}`.replace(" items long", " items");
    }
    case "invalid_value":
      return `must be ${issue.values.length === 1 ? JSON.stringify(issue.values[0]) : `one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}`}`;
    case "invalid_format":
      return `is not a valid ${issue.format === "regex" ? "value" : issue.format}`;
    case "not_multiple_of":
      return `must be a multiple of ${String(issue.divisor)}`;
    case "invalid_union":
      return "does not have any of the accepted shapes";
    default:
      return null;
  }
}

/** The sentence for one issue; `subject` names where the field lives ("query parameter", "field"). */
export function describeIssue(issue: Issue, subject: "field" | "query parameter" = "field"): string {
  if (issue.code === "unrecognized_keys") {
    const plural = issue.keys.length > 1 ? "s" : "";
    const where = issue.path.length > 0 ? ` in "${fieldName(issue.path)}"` : "";
    return `unknown ${subject}${plural} ${issue.keys.map((key) => `"${key}"`).join(", ")}${where}`;
  }
  const isBuiltIn = BUILT_IN_MESSAGE.test(issue.message);
  const text = isBuiltIn ? (builtInSentence(issue) ?? issue.message) : issue.message;
  if (issue.path.length === 0) {
    if (!isBuiltIn) return text;
    return subject === "query parameter" ? `the query ${text}` : `the request body ${text}`;
  }
  return `${subject} "${fieldName(issue.path)}" ${text}`;
}
