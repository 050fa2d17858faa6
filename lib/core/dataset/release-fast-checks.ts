import { QID_PATTERN, isEntityType } from "./release-constants";
import type { Entity, Sample } from "./release-schema";

/*
 * Hand checks for the hot path of reading a release (12,337 KB lines and
 * thousands of samples at every start of the command-line scorer): each
 * returns what the schemas of release-schema.ts would return for a line it
 * accepts as it is, and null for anything else, which then goes through the
 * schema so every problem message still comes from zod. No zod here: the
 * command-line scorer reads a valid release without evaluating it. validate-release-fast-path.test.ts
 * holds the two to agreement on the invalid suites.
 */

/** The keys of entitySchema and sampleSchema, in their order (validate-release-fast-path.test.ts holds them equal). */
export const ENTITY_KEYS = ["qid", "name", "type", "aliases", "description", "description_wiki"] as const;
export const SAMPLE_KEYS = ["id", "qid", "collection", "implicit_text", "explicit_text"] as const;

/** True when the object's own keys are exactly `keys`, in that order (a JSON line written in the schema's order). */
function hasExactly(value: Record<string, unknown>, keys: readonly string[]): boolean {
  let index = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key) || keys[index] !== key) return false;
    index += 1;
  }
  return index === keys.length;
}

function isText(value: unknown): value is string {
  return typeof value === "string" && !value.includes("\u0000");
}

function isNonEmptyText(value: unknown): value is string {
  return isText(value) && value.trim().length > 0;
}

function isQid(value: unknown): value is string {
  return typeof value === "string" && QID_PATTERN.test(value);
}

export function wellFormedEntity(value: Record<string, unknown>): Entity | null {
  const { qid, name, type, aliases, description, description_wiki } = value;
  if (!isQid(qid) || !isNonEmptyText(name) || typeof type !== "string" || !isEntityType(type) || !isText(description) || !isText(description_wiki)) {
    return null;
  }
  if (!Array.isArray(aliases) || !aliases.every(isText)) {
    return null;
  }
  if (hasExactly(value, ENTITY_KEYS)) {
    // Already what zod's parse returns (the schema's keys in its order): no copy.
    return value as Entity;
  }
  // Only the schema's keys, in its order, in a new object: what zod's parse returns.
  return { qid, name, type, aliases: [...(aliases as string[])], description, description_wiki };
}

export function wellFormedSample(value: Record<string, unknown>): Sample | null {
  const { id, qid, collection, implicit_text, explicit_text } = value;
  if (!isNonEmptyText(id) || !isQid(qid) || !isNonEmptyText(collection) || collection === "__proto__" || !isNonEmptyText(implicit_text) || !isText(explicit_text)) {
    return null;
  }
  return hasExactly(value, SAMPLE_KEYS) ? (value as Sample) : { id, qid, collection, implicit_text, explicit_text };
}
