/**
 * The names and fixed lists of the IRC-Bench release format (protocol
 * sections 1-3) without its zod schemas (release-schema.ts re-exports all of
 * this): code on the command-line scorer's hot path imports them from here,
 * so zod is only evaluated when a line needs its messages.
 */

/** The seven entity types of the paper (section 3.6), in the paper's order. */
export const ENTITY_TYPES = ["Place", "Organization", "Person", "Event", "Work", "Military Unit", "Other"] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export const SPLITS = ["train", "dev", "test"] as const;
export type Split = (typeof SPLITS)[number];

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

export function isEntityType(value: string): value is EntityType {
  return (ENTITY_TYPES as readonly string[]).includes(value);
}
