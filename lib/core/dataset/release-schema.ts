import { z } from "zod";
import { ENTITY_TYPES, QID_PATTERN } from "./release-constants";

/**
 * The IRC-Bench release format (protocol sections 1-3): the single source of
 * truth for entities, samples, dataset.json and the two download shapes.
 * Types are inferred from these schemas, never written twice.
 */

export {
  ENTITY_TYPES,
  KB_FILE,
  META_FILE,
  SPLITS,
  SPLIT_FILES,
  isEntityType,
  type EntityType,
  type ReleaseFileName,
  type Split,
  type SplitFile,
} from "./release-constants";

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
  /** Protocol section 12: the share of test samples in the feedback slice, in (0, 0.5] (default 0.25). */
  feedback_fraction: z.number().gt(0, "must be above 0").max(0.5, "must be at most 0.5").optional(),
  /**
   * Protocol section 12 (v1.3): the name this release's slices are keyed by (default: its name). A release
   * name whose test split shares an entity with another slice family's must name that family.
   */
  slice_family: z.string().min(1).max(200).optional(),
  /** Protocol section 12: published or pending entries per account, track and release name (default 3). */
  max_entries_per_account: z.number().int().min(1).max(1000).optional(),
});
export type DatasetMeta = z.infer<typeof datasetMetaSchema>;

