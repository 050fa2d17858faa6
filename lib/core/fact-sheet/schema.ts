import { z } from "zod";
import { freeText } from "@/lib/core/text";
import { formatCount, parseParameterCount } from "@/lib/core/format/numbers";

/**
 * The fact sheet of a leaderboard entry: how the number was made.
 * One versioned schema shared by the publication form, the API (request and
 * edit), the command-line client (`publish --fact-sheet FILE`, `fact-sheet
 * template`) and the database, which stores the parsed sheet as JSON with its
 * version. Every answer the owner may not know is `null` ("not stated"): a
 * sheet with nulls is valid but incomplete (`missingFactSheetFields`), and
 * only a complete one counts towards the "documented" provenance tier.
 *
 * A new version gets its own schema and a parser that upgrades older stored
 * sheets; version 1 is the only one so far.
 */

export const FACT_SHEET_VERSION = 1;

export const APPROACHES = ["prompted-llm", "fine-tuned-llm", "retriever", "hybrid", "other"] as const;
export type Approach = (typeof APPROACHES)[number];

export const APPROACH_LABELS: Record<Approach, string> = {
  "prompted-llm": "Prompted LLM",
  "fine-tuned-llm": "Fine-tuned LLM",
  retriever: "Retriever",
  hybrid: "Hybrid",
  other: "Other",
};

const RUN_POLICIES = ["single-run", "best-of-n"] as const;

const ISO_CUTOFF = /^(\d{4})-(0[1-9]|1[0-2])(?:-(0[1-9]|[12]\d|3[01]))?$/;

/** A knowledge cutoff: an ISO month ("2024-06") or date ("2024-06-30") that exists in the calendar. */
const knowledgeCutoffSchema = z.string().refine(
  (value) => {
    const match = ISO_CUTOFF.exec(value);
    if (match === null) return false;
    if (match[3] === undefined) return true;
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  },
  { message: "must be an ISO month (2024-06) or date (2024-06-30)" },
);

const optionalText = (max: number) => freeText().trim().max(max, `must be at most ${formatCount(max)} characters`);

const nullableUrl = z
  .union([z.null(), freeText().trim().max(500, "must be at most 500 characters")])
  .transform((value) => (value === null || value === "" ? null : value))
  .pipe(z.url({ protocol: /^https?$/, error: "must be an http(s) URL" }).nullable());

const nullableText = (max: number) =>
  z.union([z.null(), optionalText(max)]).transform((value) => (value === null || value === "" ? null : value));

const unknownFlag = z.boolean({ message: "must be true, false or null (not stated)" }).nullable();

const dataUsedSchema = z
  .object({
    /** The IRC-Bench train split. */
    train: unknownFlag,
    /** The IRC-Bench dev split (for tuning or training). */
    dev: unknownFlag,
    /** Any data from the source oral-history collections beyond the released samples. */
    sourceCollections: unknownFlag,
    /** Wikidata or Wikipedia beyond the knowledge base the release ships. */
    wikiBeyondKb: unknownFlag,
    /** What else, in words (free text moved here from the old "external data" field). */
    details: optionalText(1000).default(""),
  })
  .strict();

const configurationSchema = z
  .object({
    /** The prompts or configuration itself. */
    text: optionalText(20_000).default(""),
    /** Or a link to them. */
    url: nullableUrl.default(null),
  })
  .strict();

const protocolChecklistSchema = z
  .object({
    /** No tuning on the test split (protocol: the test split is for the final number only). */
    noTestTuning: unknownFlag,
    runs: z.enum(RUN_POLICIES, { message: `must be one of ${RUN_POLICIES.join(", ")} or null` }).nullable(),
    /** With runs "best-of-n": how many runs the reported one is the best of. */
    bestOfN: z.number({ message: "must be a number" }).int("must be a whole number").min(2, "must be at least 2").max(10_000).nullable().default(null),
    seeds: optionalText(500).default(""),
  })
  .strict()
  .superRefine((value, context) => {
    if (value.runs === "best-of-n" && value.bestOfN === null) {
      context.addIssue({ code: "custom", path: ["bestOfN"], message: 'is needed when runs is "best-of-n": of how many runs is this the best?' });
    }
    if (value.runs !== "best-of-n" && value.bestOfN !== null) {
      context.addIssue({ code: "custom", path: ["bestOfN"], message: 'is only for runs "best-of-n"; use null' });
    }
  });

export const factSheetSchema = z
  .object({
    version: z.literal(FACT_SHEET_VERSION, { message: `must be ${FACT_SHEET_VERSION} (the fact sheet version this server reads)` }),
    systemName: freeText().trim().min(2, "must be at least 2 characters").max(80, "must be at most 80 characters"),
    team: optionalText(120).default(""),
    approach: z.enum(APPROACHES, { message: `must be one of ${APPROACHES.join(", ")} or null` }).nullable(),
    baseModel: nullableText(200),
    /** The base model's knowledge cutoff; compared with the release date by the leaderboard's cutoff filter. */
    knowledgeCutoff: knowledgeCutoffSchema.nullable(),
    /** A number, or text as the leaderboard's size filter reads it ("1.3B", "350M"): one reader, parseParameterCount. */
    parameters: z
      .preprocess(
        (value) => (typeof value === "string" ? (parseParameterCount(value) ?? value) : value),
        z.number({ message: 'must be a number, or a count like "1.3B", "350M" or "8000000000"' }).int("must be a whole number").nonnegative("must not be negative").max(1e13, "must be at most 1e13").nullable(),
      ),
    openWeights: unknownFlag,
    dataUsed: dataUsedSchema,
    configuration: configurationSchema,
    compute: optionalText(1000).default(""),
    codeUrl: nullableUrl,
    paperUrl: nullableUrl,
    protocol: protocolChecklistSchema,
  })
  .strict();

/** A fact sheet as the server stores and serves it (every default filled in). */
export type FactSheet = z.output<typeof factSheetSchema>;

/** Reads a stored sheet back; null when the column is empty or holds something this version cannot read. */
export function readStoredFactSheet(stored: unknown): FactSheet | null {
  if (stored === null || stored === undefined) return null;
  const parsed = factSheetSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}

/** A fact sheet whose every answer is "not stated": what a free-text entry without details migrates to. */
export function emptyFactSheet(systemName: string): FactSheet {
  return {
    version: FACT_SHEET_VERSION,
    systemName,
    team: "",
    approach: null,
    baseModel: null,
    knowledgeCutoff: null,
    parameters: null,
    openWeights: null,
    dataUsed: { train: null, dev: null, sourceCollections: null, wikiBeyondKb: null, details: "" },
    configuration: { text: "", url: null },
    compute: "",
    codeUrl: null,
    paperUrl: null,
    protocol: { noTestTuning: null, runs: null, bestOfN: null, seeds: "" },
  };
}
