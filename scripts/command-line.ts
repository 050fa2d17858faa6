/**
 * The one command-line parser of the operator, developer and benchmark
 * scripts: node:util parseArgs with the behaviour every command shares.
 *
 * - `--help` prints the usage and exits 0;
 * - an unknown option, a missing value or a stray positional prints
 *   "NAME: what is wrong" and the usage to stderr and exits 2;
 * - `integerOption` reads a whole-number option with its bounds, saying which
 *   flag and what it got when the value is not one; `choiceOption` one of a set
 *   of words and `requiredOption` a string the command cannot run without, with
 *   the same kind of message.
 */
import { parseArgs, type ParseArgsConfig } from "node:util";

type Options = NonNullable<ParseArgsConfig["options"]>;
type Values<O extends Options> = ReturnType<typeof parseArgs<{ options: O; allowPositionals: true; strict: true }>>["values"];

type Spec<O extends Options> = {
  /** The command as a person types it ("npm run rescore"): the start of every message. */
  name: string;
  /** The usage text printed for --help and after an error. */
  usage: string;
  options: O;
  /** How many positionals the command takes (default none). */
  positionals?: { min: number; max: number };
  argv?: string[];
};

function fail(name: string, usage: string, message: string): never {
  process.stderr.write(`${name}: ${message}\n\n${usage}\n`);
  process.exit(2);
}

export function parseCommandLine<const O extends Options>(spec: Spec<O>) {
  const options: Options = { ...spec.options, help: { type: "boolean", short: "h" } };
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: spec.argv ?? process.argv.slice(2), options, allowPositionals: true, strict: true });
  } catch (error) {
    fail(spec.name, spec.usage, error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help === true) {
    process.stdout.write(`${spec.usage}\n`);
    process.exit(0);
  }
  const { min, max } = spec.positionals ?? { min: 0, max: 0 };
  const count = parsed.positionals.length;
  if (count < min) fail(spec.name, spec.usage, `expected ${min === max ? min : `at least ${min}`} argument(s), got ${count}`);
  if (count > max) fail(spec.name, spec.usage, `unexpected argument "${parsed.positionals[max]}"`);
  return { values: parsed.values as Values<O>, positionals: parsed.positionals, fail: (message: string) => fail(spec.name, spec.usage, message) };
}

/** A whole-number option within [min, max], or its default when absent. */
export function integerOption(
  command: { fail: (message: string) => never },
  flag: string,
  value: string | undefined,
  bounds: { min: number; max?: number; fallback: number },
): number {
  if (value === undefined) return bounds.fallback;
  const parsed = /^-?\d+$/.test(value) ? Number(value) : Number.NaN;
  const max = bounds.max ?? Number.MAX_SAFE_INTEGER;
  if (!Number.isSafeInteger(parsed) || parsed < bounds.min || parsed > max) {
    command.fail(`--${flag} must be a whole number from ${bounds.min}${bounds.max === undefined ? " up" : ` to ${bounds.max}`}, got "${value}"`);
  }
  return parsed;
}

/** One of a fixed set of words (a store, a split, a track), or its default when absent. */
export function choiceOption<const C extends readonly string[]>(
  command: { fail: (message: string) => never },
  flag: string,
  value: string | undefined,
  choices: C,
  fallback?: C[number],
): C[number] {
  if (value === undefined && fallback !== undefined) return fallback;
  if (value !== undefined && (choices as readonly string[]).includes(value)) return value;
  const words = choices.length === 2 ? `${choices[0]} or ${choices[1]}` : `one of ${choices.join(", ")}`;
  return command.fail(value === undefined ? `--${flag} is required (${words})` : `--${flag} must be ${words}, got "${value}"`);
}

/** A string option the command cannot run without. */
export function requiredOption(command: { fail: (message: string) => never }, flag: string, value: string | undefined, placeholder: string): string {
  if (value === undefined || value === "") command.fail(`--${flag} ${placeholder} is required`);
  return value;
}
