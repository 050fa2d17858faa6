import { z } from "zod";

/**
 * The IRC-Bench release format (protocol sections 1-3): the single source of
 * truth for entities, samples, dataset.json and the two download shapes.
 * Types are inferred from these schemas, never written twice.
 */

/** The seven entity types of the paper (section 3.6), in the paper's order. */
export const ENTITY_TYPES = ["Place", "Organization", "Person", "Event", "Work", "Military Unit", "Other"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const SPLITS = ["train", "dev", "test"] as const;
export type Split = (typeof SPLITS)[number];

/** The 11 thematic collections of the paper (section 3.2), in the paper's order. */
export const PAPER_COLLECTIONS = [
  "Veterans",
  "Immigration",
  "Regional",
  "Depression Era",
  "Japanese American",
  "Academic",
  "September 11",
  "Civil Rights",
  "COVID-19",
  "Labor",
  "Refugee",
] as const;
export type PaperCollection = (typeof PAPER_COLLECTIONS)[number];

/** File names of a release directory (protocol section 2). */
export const KB_FILE = "kb.jsonl";
export const META_FILE = "dataset.json";
export const SPLIT_FILES = {
  train: "train.jsonl",
  dev: "dev.jsonl",
  test: "test.jsonl",
} as const satisfies Record<Split, string>;
export type SplitFile = (typeof SPLIT_FILES)[Split];
export type ReleaseFileName = typeof KB_FILE | typeof META_FILE | SplitFile;

/** A Wikidata item id: `Q` followed by digits (protocol section 1). */
export const QID_PATTERN = /^Q[0-9]+$/;

export const qidSchema = z.string().regex(QID_PATTERN, { message: "must be a Wikidata QID such as Q52418" });

/** PostgreSQL text cannot hold NUL; say so at the line instead of failing at insert. */
const textSchema = z.string().refine((value) => !value.includes("\u0000"), { message: "must not contain a NUL character (\\u0000)" });
/** Not empty and not only white space: a blank name would match every prediction by containment. */
const nonEmptyString = textSchema.refine((value) => value.trim().length > 0, { message: "must not be empty or blank" });
/** Collection names become keys of report objects; "__proto__" cannot be one. */
const collectionSchema = nonEmptyString.refine((value) => value !== "__proto__", { message: 'must not be "__proto__"' });

export const entitySchema = z.object({
  qid: qidSchema,
  name: nonEmptyString,
  type: z.enum(ENTITY_TYPES),
  aliases: z.array(textSchema),
  description: textSchema,
  description_wiki: textSchema,
});
export type Entity = z.infer<typeof entitySchema>;

/** A sample of the maintainer's gold release (train, dev and test alike). */
export const sampleSchema = z.object({
  id: nonEmptyString,
  qid: qidSchema,
  collection: collectionSchema,
  implicit_text: nonEmptyString,
  explicit_text: textSchema,
});
export type Sample = z.infer<typeof sampleSchema>;

export const datasetMetaSchema = z.object({
  name: nonEmptyString,
  version: nonEmptyString,
  description: z.string(),
  /** Protocol section 12: test-split groups smaller than this show n and no metrics (default 30). */
  min_group_n: z.number().int().min(1).max(1_000_000).optional(),
});
export type DatasetMeta = z.infer<typeof datasetMetaSchema>;

/** What participants download for the test split: no gold (protocol section 3). */
export const publicTestSampleSchema = z.object({
  id: nonEmptyString,
  collection: collectionSchema,
  implicit_text: nonEmptyString,
});
export type PublicTestSample = z.infer<typeof publicTestSampleSchema>;

/** What participants download for train and dev: the sample with the gold entity joined in. */
export const goldSampleSchema = sampleSchema.extend({
  name: nonEmptyString,
  type: z.enum(ENTITY_TYPES),
  aliases: z.array(z.string()),
});
export type GoldSample = z.infer<typeof goldSampleSchema>;

export function isEntityType(value: string): value is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(value);
}

/*
 * Hand checks for the hot path of reading a release (12,337 KB lines and
 * thousands of samples at every start of the command-line scorer): each
 * returns what the schema above would return for a line it accepts as it is,
 * and null for anything else, which then goes through the schema so every
 * problem message still comes from zod. validate-release-fast-path.test.ts
 * holds the two to agreement on the invalid suites.
 */

const ENTITY_KEYS = Object.keys(entitySchema.shape);
const SAMPLE_KEYS = Object.keys(sampleSchema.shape);

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
