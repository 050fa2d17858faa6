import { z } from "zod";

/**
 * The stored shape of a test file's probe flags (protocol section 12,
 * docs/integrity.md "Probe flags"): what the worker writes to
 * `Score.probeFlags` and what the review pages read back. Parsed on write and
 * on read, so a row from an older or broken writer is noticed, not trusted.
 */

export const CLOSED_PROBE_FLAG_IDS = ["single_entry_rankings", "top1_from_known_splits"] as const;
export const OPEN_PROBE_FLAG_IDS = ["most_common_prediction", "many_names", "short_predictions"] as const;
/** Flags of both tracks, read from answers in the unified view. */
export const SHARED_PROBE_FLAG_IDS = ["uninformative_groups"] as const;
export const PROBE_FLAG_IDS = [...CLOSED_PROBE_FLAG_IDS, ...OPEN_PROBE_FLAG_IDS, ...SHARED_PROBE_FLAG_IDS] as const;

export const probeFlagIdSchema = z.enum(PROBE_FLAG_IDS);
export type ProbeFlagId = z.infer<typeof probeFlagIdSchema>;

const shareSchema = z.number().min(0).max(1);

const probeFlagSchema = z.object({
  id: probeFlagIdSchema,
  /** What the share counts, in words for the review page. */
  label: z.string().min(1),
  /** The share of the file's samples showing the sign, in [0, 1]. */
  value: shareSchema,
  /** The flag is raised when `value` is strictly above it. */
  threshold: shareSchema,
  raised: z.boolean(),
  /** How many samples show the sign (`value` = count / n). */
  count: z.number().int().nonnegative(),
  /** uninformative_groups: the groups showing it, each with its number of samples. */
  groups: z
    .array(z.object({ kind: z.enum(["collection", "type"]), name: z.string().min(1), n: z.number().int().positive() }))
    .optional(),
});
export type ProbeFlag = z.infer<typeof probeFlagSchema>;

/** 2: with uninformative_groups. Flags of version 1 (before it) still read; re-scoring computes the new one. */
export const PROBE_FLAGS_VERSION = 2;

export const probeFlagsSchema = z
  .object({
    version: z.union([z.literal(1), z.literal(PROBE_FLAGS_VERSION)]),
    track: z.enum(["open", "closed"]),
    n: z.number().int().nonnegative(),
    flags: z.array(probeFlagSchema),
  })
  .refine((value) => value.flags.every((flag) => flag.raised === flag.value > flag.threshold), {
    message: "a flag is raised exactly when its value is above its threshold",
    path: ["flags"],
  });
export type ProbeFlags = z.infer<typeof probeFlagsSchema>;

/** Reads stored flags: null when there are none (a dev file, or a score from before v1.1) or they do not parse. */
export function readProbeFlags(stored: unknown): ProbeFlags | null {
  if (stored === null || stored === undefined) return null;
  const parsed = probeFlagsSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

export function raisedProbeFlags(flags: ProbeFlags | null): ProbeFlag[] {
  return flags ? flags.flags.filter((flag) => flag.raised) : [];
}
