/**
 * The offline scorer's command line: its usage text, the checked arguments
 * (by hand for the common case, else by the zod schema of
 * score-full-validation.ts, loaded on first need) and the error that ends a run.
 */
import { parseArgs } from "node:util";
import {
  DEFAULT_BOOTSTRAP_RESAMPLES,
  DEFAULT_BOOTSTRAP_SEED,
  MAX_BOOTSTRAP_RESAMPLES,
  MAX_PREDICTION_FILE_BYTES,
  MAX_PREDICTION_LENGTH,
  MAX_RANKING_LENGTH,
} from "@/lib/core/scoring/limits";
import { SCORER_VERSION } from "@/lib/core/scoring/score-report";
import { SCORER_COMMAND, scorerVersionLabel } from "@/lib/core/format/versions";
import type { Args } from "./score-full-validation";

const MIB = 1024 * 1024;

type FullValidation = typeof import("./score-full-validation");

let fullValidation: Promise<FullValidation> | undefined;

/**
 * zod and everything that reports problems with its messages (the release
 * validator, the prediction-file validator, the command line's schema),
 * loaded on first need: a valid closed-track run of the usual form needs
 * none of it. In the bundle this import is a second, self-contained module
 * that scripts/build/build-cli.mjs embeds as a data: URL, so Node neither parses
 * nor evaluates it unless it is needed.
 */
export function loadFullValidation(): Promise<FullValidation> {
  fullValidation ??= import("./score-full-validation");
  return fullValidation;
}

export const USAGE = `Usage: ${SCORER_COMMAND} --release DIR --split dev|test --predictions FILE
           [--baseline FILE ...] [--track open|closed] [--seed N] [--resamples N] [--json]
           [--no-cache]
       (in the repository: npm run --silent score -- ...)

${scorerVersionLabel(SCORER_VERSION)}: scores an IRC-Bench prediction file exactly as the leaderboard server does.
The site shows this version as "Scorer ${SCORER_VERSION}" beside every score.

  --release DIR        release directory: kb.jsonl and the split's file (dev.jsonl,
                       or test.jsonl with gold qids), plus dataset.json if present.
                       A folder with the site's dev.jsonl and kb.jsonl downloads works
  --split SPLIT        dev or test. The test.jsonl that participants download has
                       no gold qids, so --split test only works on a maintainer's
                       gold release
  --predictions FILE   JSON Lines, one line per sample of the split:
                         open-world:   {"id": "...", "prediction": "entity name"}
                                       (a string of at most ${MAX_PREDICTION_LENGTH} characters)
                         closed-world: {"id": "...", "ranking": ["Q52418", ...]}
                                       (1 to ${MAX_RANKING_LENGTH} distinct QIDs from kb.jsonl, best first)
  --baseline FILE      a prediction file to compare with (repeatable; either track).
                       Same track: McNemar on the primary metric (alias for open,
                       hit@1 for closed); across tracks: on the unified alias-aware
                       top-1 metric. p-values are also Holm-adjusted across baselines
  --track TRACK        open or closed; default: read from the first line that has
                       "prediction" or "ranking"
  --seed N             bootstrap PRNG seed, a non-negative integer (default ${DEFAULT_BOOTSTRAP_SEED})
  --resamples N        bootstrap resamples, 1..${MAX_BOOTSTRAP_RESAMPLES} (default ${DEFAULT_BOOTSTRAP_RESAMPLES})
  --json               print one JSON object (the leaderboard's score report) instead
                       of tables; rates are fractions in [0, 1]
  --no-cache           read and validate the release and the baselines even if they
                       were read before. Otherwise a release that passed validation
                       is kept, keyed by the SHA-256 of its files, and so are the
                       outcomes of each valid closed-track baseline, keyed by the
                       SHA-256 of its bytes and the release, in IRC_BENCH_CACHE_DIR
                       (default $XDG_CACHE_HOME/irc-bench or ~/.cache/irc-bench); a
                       run of this same scorer file on the same bytes reads those
                       instead; any change is a miss. The predictions file is
                       always read and validated
  -h, --help           show this help
  --version            print the scorer's version ("${scorerVersionLabel(SCORER_VERSION)}")

Exit status: 0 scored; 1 the predictions or a baseline file are invalid (each
problem on stderr as FILE:LINE: message; files over ${MAX_PREDICTION_FILE_BYTES / MIB} MiB are refused);
2 usage error, or the release cannot be read or is invalid.

Scoring rules: docs/scoring.md.`;


type ArgValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

const DIGITS = /^\d+$/;

function quickInteger(value: unknown, fallback: number): number | null {
  if (value === undefined) return fallback;
  if (typeof value !== "string" || !DIGITS.test(value)) return null;
  const number = Number(value);
  return Number.isSafeInteger(number) ? number : null;
}

function isFilledString(value: unknown): value is string {
  return typeof value === "string" && value.length > 0;
}

/**
 * The command line checked by hand, for the common case: what argsSchema
 * (scripts/participant/score-full-validation.ts) gives for values it accepts, or null,
 * and then the schema itself runs, for its messages. Keeps zod out of a
 * scorer run that needs none of it.
 */
function quickArgs(values: ArgValues): Args | null {
  const { release, split, predictions, baseline = [], track, json = false, "no-cache": noCache = false } = values;
  const seed = quickInteger(values.seed, DEFAULT_BOOTSTRAP_SEED);
  const resamples = quickInteger(values.resamples, DEFAULT_BOOTSTRAP_RESAMPLES);
  if (!isFilledString(release) || !isFilledString(predictions) || (split !== "dev" && split !== "test")) return null;
  if (!Array.isArray(baseline) || !baseline.every(isFilledString) || typeof json !== "boolean" || typeof noCache !== "boolean") return null;
  if (track !== undefined && track !== "open" && track !== "closed") return null;
  if (seed === null || resamples === null || resamples < 1 || resamples > MAX_BOOTSTRAP_RESAMPLES) return null;
  return { release, split, predictions, baseline, track, seed, resamples, json, noCache };
}

/** A failure that ends the run with an exit status and messages for stderr. */
export class ExitError extends Error {
  constructor(
    readonly status: 1 | 2,
    readonly lines: readonly string[],
  ) {
    super(lines[0]);
  }
}

export async function parseCommandLine(argv: readonly string[]): Promise<Args | "help" | "version"> {
  let values: ArgValues;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        release: { type: "string" },
        split: { type: "string" },
        predictions: { type: "string" },
        baseline: { type: "string", multiple: true },
        track: { type: "string" },
        seed: { type: "string" },
        resamples: { type: "string" },
        json: { type: "boolean" },
        "no-cache": { type: "boolean" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
      allowPositionals: false,
    }));
  } catch (error) {
    throw new ExitError(2, [error instanceof Error ? error.message : String(error), "Run with --help for usage."]);
  }
  if (values.help === true) {
    return "help";
  }
  if (values.version === true) {
    return "version";
  }
  const quick = quickArgs(values);
  if (quick !== null) {
    return quick;
  }
  const parsed = (await loadFullValidation()).parseArgValues(values);
  if (!parsed.ok) {
    throw new ExitError(2, [...parsed.messages, "Run with --help for usage."]);
  }
  return parsed.args;
}

