/**
 * The fixed numbers of the evaluation protocol (sections 4 and 9), in one place
 * so the validator, the scorer, the CLI and the pages agree on them.
 */

/** Longest open-world prediction, in Unicode code points (section 4). */
export const MAX_PREDICTION_LENGTH = 512;

/** Longest closed-world ranking, in QIDs (section 4). */
export const MAX_RANKING_LENGTH = 100;

/** How many problems an invalid file lists before summarising the rest (section 4). */
export const MAX_LISTED_PROBLEMS = 50;

/** How many missing sample ids an invalid file names (section 4: "the first few ids"). */
export const MAX_LISTED_MISSING_IDS = 5;

/** Longest line of a prediction file in bytes, without its terminator; a longer one is refused unparsed (section 4, v1.1). */
export const MAX_PREDICTION_LINE_BYTES = 64 * 1024;

/** Default size limit of a prediction file, refused before parsing (section 4). */
export const MAX_PREDICTION_FILE_BYTES = 64 * 1024 * 1024;

/** Bootstrap defaults (section 9). */
export const DEFAULT_BOOTSTRAP_SEED = 42;
export const DEFAULT_BOOTSTRAP_RESAMPLES = 1000;
/**
 * The most resamples the command-line scorer accepts (--resamples).
 * @public used by scripts/participant/score-args.ts and score-full-validation.ts, a use `knip --production` does not see.
 */
export const MAX_BOOTSTRAP_RESAMPLES = 100_000;
