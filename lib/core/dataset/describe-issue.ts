import type { z } from "zod";

/**
 * Turns a zod issue on one JSON object into a message a maintainer can act
 * on: which field, what was expected, what was found.
 */

const MAX_SHOWN_VALUE = 60;

export function formatFieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const key of path) {
    if (typeof key === "number") {
      out += `[${key}]`;
    } else {
      out += out.length === 0 ? String(key) : `.${String(key)}`;
    }
  }
  return out;
}

function valueAtPath(root: unknown, path: readonly PropertyKey[]): unknown {
  let current: unknown = root;
  for (const key of path) {
    if (current === null || typeof current !== "object") {
      return undefined;
    }
    current = (current as Record<PropertyKey, unknown>)[key];
  }
  return current;
}

function withArticle(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

export function describeValueType(value: unknown): string {
  if (value === null) {
    return "null";
  }
  if (Array.isArray(value)) {
    return "an array";
  }
  return withArticle(typeof value);
}

export function showValue(value: unknown): string {
  const shown = JSON.stringify(value) ?? String(value);
  return shown.length > MAX_SHOWN_VALUE ? `${shown.slice(0, MAX_SHOWN_VALUE - 1)}…` : shown;
}

export function describeIssue(issue: z.core.$ZodIssue, root: unknown): string {
  const field = formatFieldPath(issue.path);
  const actual = valueAtPath(root, issue.path);
  switch (issue.code) {
    case "invalid_type":
      if (actual === undefined) {
        return `missing field "${field}" (expected ${withArticle(issue.expected)})`;
      }
      return `field "${field}" must be ${withArticle(issue.expected)}, got ${describeValueType(actual)}`;
    case "invalid_value":
      return `field "${field}" is ${showValue(actual)}; expected one of: ${issue.values.map(String).join(", ")}`;
    case "too_small":
      if (issue.origin === "string" && issue.minimum === 1) {
        return `field "${field}" must not be empty`;
      }
      return `field "${field}" is too small: ${issue.message}`;
    case "invalid_format":
      return `field "${field}" ${issue.message} (got ${showValue(actual)})`;
    default:
      return `field "${field}": ${issue.message}`;
  }
}
