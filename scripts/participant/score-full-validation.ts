/**
 * The scorer's full validation (scripts/participant/score.ts loads it on first need):
 * the zod schema of the command line, and the release and prediction-file
 * validators that give every problem its message. Bundled apart from the
 * scorer's fast path by scripts/build/build-cli.mjs.
 */
import { z } from "zod";
import { DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED, MAX_BOOTSTRAP_RESAMPLES } from "@/lib/core/scoring/limits";
import { TRACKS } from "@/lib/core/scoring/tracks";
import type { Track } from "@/lib/core/scoring/tracks";

export { readRelease } from "@/lib/platform/io/read-release";
export { validatePredictionFile } from "@/lib/platform/io/validate-prediction-file";

const nonNegativeInteger = (flag: string) =>
  z
    .string()
    .regex(/^\d+$/, { error: `${flag} must be a non-negative integer` })
    .transform(Number)
    .refine(Number.isSafeInteger, { error: `${flag} is too large` });

const argsSchema = z.object({
  release: z.string({ error: "--release DIR is required" }).min(1, { error: "--release DIR is required" }),
  split: z.enum(["dev", "test"], { error: "--split must be dev or test" }),
  predictions: z.string({ error: "--predictions FILE is required" }).min(1, { error: "--predictions FILE is required" }),
  baseline: z.array(z.string().min(1, { error: "--baseline needs a FILE" })).default([]),
  track: z.enum(TRACKS, { error: "--track must be open or closed" }).optional(),
  seed: nonNegativeInteger("--seed").default(DEFAULT_BOOTSTRAP_SEED),
  resamples: nonNegativeInteger("--resamples")
    .refine((value) => value >= 1 && value <= MAX_BOOTSTRAP_RESAMPLES, { error: `--resamples must be 1..${MAX_BOOTSTRAP_RESAMPLES}` })
    .default(DEFAULT_BOOTSTRAP_RESAMPLES),
  json: z.boolean().default(false),
  "no-cache": z.boolean().default(false),
});

/** The command line's values through the schema: the arguments, or every message. */
export function parseArgValues(values: unknown): { ok: true; args: Args } | { ok: false; messages: string[] } {
  const parsed = argsSchema.safeParse(values);
  if (!parsed.success) return { ok: false, messages: parsed.error.issues.map((issue) => issue.message) };
  const { "no-cache": noCache, ...args } = parsed.data;
  return { ok: true, args: { ...args, noCache } };
}

/** What the command line means once checked (scripts/participant/score-full-validation.ts has its zod schema, the contract). */
export type Args = {
  release: string;
  split: "dev" | "test";
  predictions: string;
  baseline: string[];
  track?: Track;
  seed: number;
  resamples: number;
  json: boolean;
  /** --no-cache: read and validate the release and the baselines without the cache (scripts/participant/score-cache.ts). */
  noCache: boolean;
};
