import { z } from "zod";
import { formatFieldPath, showValue } from "@/lib/core/dataset/describe-issue";
import { ENTITY_TYPES, isEntityType, type EntityType } from "@/lib/core/dataset/release-schema";
import { CLOSED_METRIC_KEYS, OPEN_METRIC_KEYS } from "@/lib/core/scoring/tracks";

/**
 * A file of results reported in papers (shown on the leaderboard as
 * "reported" rows: point values only, no intervals, no significance). It names
 * the release its numbers belong to; rows attach to that release only.
 *
 *   {
 *     "release": {"name": "irc-bench", "version": "1.0"},
 *     "results": [
 *       {"name": "O1 GPT-4o, zero-shot", "track": "open", "split": "test",
 *        "metrics": {"exact": 0.2702, "alias": 0.333, "contain": 0.333, "jaccard": 0.3505},
 *        "by_type": {"Place": {"n": 2076, "metrics": {"jaccard": 0.3815}}},
 *        "source": "IRC-Bench paper, Table 4", "date": "2026-05-01"}
 *     ]
 *   }
 *
 * `date` (optional) is the paper's publication date; rows without one are
 * listed under the progress timeline but not drawn on it.
 *
 * Rates are fractions in [0, 1] like everywhere else (protocol: "All rates
 * are fractions"). Metrics are the protocol's keys for the row's track; any
 * subset may be given. Cumulative metrics must be ordered as they must be in
 * any real result (exact <= alias <= contain <= jaccard; hit@1 <= hit@3 <=
 * hit@5 <= hit@10; hit@1 <= mrr and hit@1 <= alias_hit@1), which catches a
 * table's columns copied in the wrong order.
 */

const fraction = z
  .number({ message: "must be a number (a fraction in [0, 1])" })
  .refine((value) => value >= 0 && value <= 1, {
    message: "must be a fraction in [0, 1]; write 38.94% as 0.3894",
  });

const openMetricsSchema = z
  .object(Object.fromEntries(OPEN_METRIC_KEYS.map((key) => [key, fraction.optional()])) as Record<
    (typeof OPEN_METRIC_KEYS)[number],
    z.ZodOptional<typeof fraction>
  >)
  .strict();

const closedMetricsSchema = z
  .object(Object.fromEntries(CLOSED_METRIC_KEYS.map((key) => [key, fraction.optional()])) as Record<
    (typeof CLOSED_METRIC_KEYS)[number],
    z.ZodOptional<typeof fraction>
  >)
  .strict();

function byTypeSchemaOf<M extends z.ZodType>(metrics: M) {
  return z.partialRecord(
    z.enum(ENTITY_TYPES),
    z.object({ n: z.number().int().nonnegative().optional(), metrics }).strict(),
  );
}

const rowBase = {
  name: z.string().trim().min(1).max(200),
  split: z.enum(["dev", "test"]),
  source: z.string().trim().min(1).max(500),
  /** The paper's publication date (YYYY-MM-DD): the progress timeline draws the row there. */
  date: z.iso.date({ message: "must be a date written YYYY-MM-DD (the paper's publication date)" }).optional(),
};

const openRowSchema = z
  .object({ ...rowBase, track: z.literal("open"), metrics: openMetricsSchema, by_type: byTypeSchemaOf(openMetricsSchema).optional() })
  .strict();

const closedRowSchema = z
  .object({ ...rowBase, track: z.literal("closed"), metrics: closedMetricsSchema, by_type: byTypeSchemaOf(closedMetricsSchema).optional() })
  .strict();

const rowSchema = z.discriminatedUnion("track", [openRowSchema, closedRowSchema], {
  message: 'must be "open" or "closed"',
});

type MetricValues = Partial<Record<string, number | undefined>>;

/** Pairs (lower, higher) that must hold in every real result of a track. */
const ORDERED_PAIRS: Record<"open" | "closed", readonly [string, string, string][]> = {
  open: [
    ["exact", "alias", "tiers are cumulative (protocol section 6): exact <= alias <= contain <= jaccard"],
    ["alias", "contain", "tiers are cumulative (protocol section 6): exact <= alias <= contain <= jaccard"],
    ["contain", "jaccard", "tiers are cumulative (protocol section 6): exact <= alias <= contain <= jaccard"],
    ["exact", "contain", "tiers are cumulative (protocol section 6): exact <= alias <= contain <= jaccard"],
    ["exact", "jaccard", "tiers are cumulative (protocol section 6): exact <= alias <= contain <= jaccard"],
    ["alias", "jaccard", "tiers are cumulative (protocol section 6): exact <= alias <= contain <= jaccard"],
  ],
  closed: [
    ["hit@1", "hit@3", "hit@k grows with k"],
    ["hit@3", "hit@5", "hit@k grows with k"],
    ["hit@5", "hit@10", "hit@k grows with k"],
    ["hit@1", "hit@10", "hit@k grows with k"],
    ["hit@1", "mrr", "MRR counts every rank-1 sample in full, so it is at least hit@1"],
    ["hit@1", "alias_hit@1", "alias_hit@1 counts every hit@1 sample, so it is at least hit@1"],
  ],
};

function checkOrder(
  track: "open" | "closed",
  metrics: MetricValues,
  path: (string | number)[],
  context: z.RefinementCtx,
): void {
  const seen = new Set<string>();
  for (const [lower, higher, why] of ORDERED_PAIRS[track]) {
    const low = metrics[lower];
    const high = metrics[higher];
    if (low === undefined || high === undefined || low <= high || seen.has(higher)) continue;
    seen.add(higher);
    context.addIssue({
      code: "custom",
      path: [...path, higher],
      message: `${higher} (${high}) is below ${lower} (${low}), but ${why}; check the order of the table's columns`,
    });
  }
}

const reportedFileSchema = z
  .object({
    release: z.object({ name: z.string().trim().min(1), version: z.string().trim().min(1) }).strict(),
    /** Free text about the file (not stored). */
    notes: z.array(z.string()).optional(),
    results: z.array(rowSchema).min(1, { message: "must list at least one result" }),
  })
  .strict()
  // Cross-row checks run once every field is well-formed, so one mistake gives one message.
  .superRefine((file, context) => {
    const firstIndex = new Map<string, number>();
    file.results.forEach((row, index) => {
      const key = `${row.name}\u0000${row.track}\u0000${row.split}`;
      const first = firstIndex.get(key);
      if (first !== undefined) {
        context.addIssue({
          code: "custom",
          path: ["results", index, "name"],
          message: `repeats the ${row.track}-world ${row.split} result "${row.name}" of results[${first}]`,
        });
      } else {
        firstIndex.set(key, index);
      }
      const metrics: MetricValues = row.metrics;
      if (Object.keys(metrics).length === 0) {
        context.addIssue({ code: "custom", path: ["results", index, "metrics"], message: "must give at least one metric" });
      }
      checkOrder(row.track, metrics, ["results", index, "metrics"], context);
      for (const [type, group] of Object.entries(row.by_type ?? {})) {
        if (group === undefined) continue;
        const typeMetrics: MetricValues = group.metrics;
        if (Object.keys(typeMetrics).length === 0) {
          context.addIssue({
            code: "custom",
            path: ["results", index, "by_type", type, "metrics"],
            message: "must give at least one metric",
          });
        }
        checkOrder(row.track, typeMetrics, ["results", index, "by_type", type, "metrics"], context);
      }
    });
  }, { when: (payload) => payload.issues.length === 0 });

export type ReportedFile = z.infer<typeof reportedFileSchema>;

type ReportedProblem = { path: string; message: string };

function describeReportedIssue(issue: z.core.$ZodIssue, root: unknown): ReportedProblem {
  const path = formatFieldPath(issue.path) || "(file)";
  if (issue.code === "unrecognized_keys") {
    const listed = issue.keys.map((key) => `"${key}"`).join(", ");
    const hint = issue.path.at(-1) === "by_type" ? `; entity types are ${ENTITY_TYPES.join(", ")}` : "";
    return { path, message: `unknown field${issue.keys.length > 1 ? "s" : ""} ${listed}${hint}` };
  }
  if (issue.code === "invalid_type") {
    let actual: unknown = root;
    for (const key of issue.path) {
      actual = actual !== null && typeof actual === "object" ? (actual as Record<PropertyKey, unknown>)[key] : undefined;
    }
    if (actual === undefined) return { path, message: `is missing (expected ${issue.expected})` };
    return { path, message: `must be ${issue.expected === "number" ? "a number" : `of type ${issue.expected}`}, got ${showValue(actual)}` };
  }
  if (issue.code === "invalid_value") {
    return { path, message: `must be one of ${issue.values.map((value) => JSON.stringify(value)).join(", ")}` };
  }
  if (issue.code === "invalid_key") {
    return { path, message: `is not an entity type; use one of ${ENTITY_TYPES.join(", ")}` };
  }
  return { path, message: issue.message };
}

type ParseReportedResult = { ok: true; file: ReportedFile } | { ok: false; problems: ReportedProblem[] };

/** Validates a parsed JSON value; every problem names its path ("results[3].metrics.alias"). */
export function parseReportedFile(value: unknown): ParseReportedResult {
  const parsed = reportedFileSchema.safeParse(value);
  if (parsed.success) {
    return { ok: true, file: parsed.data };
  }
  return { ok: false, problems: parsed.error.issues.map((issue) => describeReportedIssue(issue, value)) };
}

/** Validates file text: bad JSON is one problem naming the parser's complaint. */
export function parseReportedText(text: string): ParseReportedResult {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    return { ok: false, problems: [{ path: "(file)", message: `invalid JSON: ${error instanceof Error ? error.message : String(error)}` }] };
  }
  return parseReportedFile(value);
}

type ReleaseKey = { name: string; version: string };

/** The imported release a file's rows attach to: exactly its name and version, or none. */
export function findReleaseFor<R extends ReleaseKey>(wanted: ReleaseKey, releases: readonly R[]): R | null {
  return releases.find((release) => release.name === wanted.name && release.version === wanted.version) ?? null;
}

const storedByTypeSchema = z.record(
  z.string(),
  z.object({ n: z.number().int().nonnegative().optional(), metrics: z.record(z.string(), z.number()) }),
);

/** Reads ReportedResult.byType as stored (the file's "by_type"); null when absent or unreadable. */
export function parseStoredReportedByType(
  value: unknown,
): Partial<Record<EntityType, { n?: number; metrics: Partial<Record<string, number>> }>> | null {
  if (value === null || value === undefined) return null;
  const parsed = storedByTypeSchema.safeParse(value);
  if (!parsed.success) return null;
  const out: Partial<Record<EntityType, { n?: number; metrics: Partial<Record<string, number>> }>> = {};
  for (const [type, group] of Object.entries(parsed.data)) {
    if (isEntityType(type)) out[type] = group;
  }
  return out;
}

const storedMetricsSchema = z.record(z.string(), z.number());

/** Reads ReportedResult.metrics as stored; empty when unreadable (the row then shows no numbers). */
export function parseStoredReportedMetrics(value: unknown): Partial<Record<string, number>> {
  const parsed = storedMetricsSchema.safeParse(value);
  return parsed.success ? parsed.data : {};
}
