import { spawnSync } from "node:child_process";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { choiceOption, integerOption, parseCommandLine, requiredOption } from "./command-line";

const USAGE = "Usage: demo [-- --runs N] [--store disk|s3] FILE";

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

/** The real parser on `argv`, with process.exit turned into a throw so a test can see the code and what was printed. */
function run(argv: string[], read: (command: ReturnType<typeof parse>) => unknown = () => undefined) {
  const printed = { stdout: "", stderr: "" };
  vi.spyOn(process.stdout, "write").mockImplementation((chunk) => ((printed.stdout += String(chunk)), true));
  vi.spyOn(process.stderr, "write").mockImplementation((chunk) => ((printed.stderr += String(chunk)), true));
  try {
    const result = read(parse(argv));
    return { code: null, result, ...printed };
  } catch (error) {
    if (error instanceof Exit) return { code: error.code, result: undefined, ...printed };
    throw error;
  } finally {
    vi.mocked(process.stdout.write).mockRestore();
    vi.mocked(process.stderr.write).mockRestore();
  }
}

function parse(argv: string[]) {
  return parseCommandLine({
    name: "npm run demo",
    usage: USAGE,
    options: { runs: { type: "string" }, store: { type: "string" }, all: { type: "boolean" } },
    positionals: { min: 1, max: 1 },
    argv,
  });
}

beforeEach(() => {
  vi.spyOn(process, "exit").mockImplementation((code) => {
    throw new Exit(Number(code ?? 0));
  });
});
afterEach(() => vi.restoreAllMocks());

describe("parseCommandLine", () => {
  it("returns the options and positionals it was given", () => {
    const { code, result } = run(["--runs", "3", "--all", "file.jsonl"], (command) => ({ values: command.values, positionals: command.positionals }));
    expect(code).toBeNull();
    expect(result).toEqual({ values: { runs: "3", all: true }, positionals: ["file.jsonl"] });
  });

  it("prints the usage on stdout for --help and -h and exits 0, even without the required argument", () => {
    for (const flag of ["--help", "-h"]) {
      const { code, stdout, stderr } = run([flag]);
      expect(code).toBe(0);
      expect(stdout).toBe(`${USAGE}\n`);
      expect(stderr).toBe("");
    }
  });

  it("answers an unknown option with the command's name, what is wrong and the usage on stderr, exit 2", () => {
    const { code, stdout, stderr } = run(["--bogus", "file"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(/^npm run demo: Unknown option '--bogus'/);
    expect(stderr.endsWith(`\n\n${USAGE}\n`)).toBe(true);
  });

  it("answers a missing value, a missing argument and a stray one with exit 2", () => {
    expect(run(["file", "--runs"]).stderr).toMatch(/^npm run demo: Option '--runs <value>' argument missing/);
    const missing = run([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^npm run demo: expected 1 argument\(s\), got 0\n/);
    const stray = run(["a", "b"]);
    expect(stray.code).toBe(2);
    expect(stray.stderr).toMatch(/^npm run demo: unexpected argument "b"\n/);
  });

  it("fail() says what the command found wrong, with the usage, exit 2", () => {
    const { code, stderr } = run(["file"], (command) => command.fail("--from and --to are both disk: nothing to migrate"));
    expect(code).toBe(2);
    expect(stderr).toBe(`npm run demo: --from and --to are both disk: nothing to migrate\n\n${USAGE}\n`);
  });
});

describe("integerOption", () => {
  const runs = (argv: string[]) => run([...argv, "file"], (command) => integerOption(command, "runs", command.values.runs, { min: 1, max: 10, fallback: 3 }));

  it("reads a whole number within its bounds, and the default when the option is absent", () => {
    expect(runs(["--runs", "7"]).result).toBe(7);
    expect(runs(["--runs", "1"]).result).toBe(1);
    expect(runs(["--runs", "10"]).result).toBe(10);
    expect(runs([]).result).toBe(3);
  });

  it("refuses fractions, words, exponents and out-of-bounds values, naming the flag and the value", () => {
    for (const value of ["2.5", "ten", "1e1", "", "0", "11", "-1"]) {
      const { code, stderr } = runs([`--runs=${value}`]);
      expect(code).toBe(2);
      expect(stderr).toMatch(new RegExp(`^npm run demo: --runs must be a whole number from 1 to 10, got "${value.replace(".", "\\.")}"\n`));
    }
  });

  it("says 'up' when there is no upper bound", () => {
    const { stderr } = run(["--runs", "0", "file"], (command) => integerOption(command, "runs", command.values.runs, { min: 1, fallback: 3 }));
    expect(stderr).toMatch(/^npm run demo: --runs must be a whole number from 1 up, got "0"\n/);
  });
});

describe("choiceOption and requiredOption", () => {
  const store = (argv: string[], fallback?: "disk") => run([...argv, "file"], (command) => choiceOption(command, "store", command.values.store, ["disk", "s3"], fallback));

  it("reads one of the words, or the default", () => {
    expect(store(["--store", "s3"]).result).toBe("s3");
    expect(store([], "disk").result).toBe("disk");
  });

  it("names the choices when the value is another word or is missing without a default", () => {
    expect(store(["--store", "tape"]).stderr).toMatch(/^npm run demo: --store must be disk or s3, got "tape"\n/);
    const missing = store([]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^npm run demo: --store is required \(disk or s3\)\n/);
  });

  it("requiredOption refuses an absent or empty value", () => {
    const required = (argv: string[]) => run([...argv, "file"], (command) => requiredOption(command, "store", command.values.store, "NAME"));
    expect(required(["--store", "x"]).result).toBe("x");
    expect(required([]).stderr).toMatch(/^npm run demo: --store NAME is required\n/);
    expect(required(["--store", ""]).code).toBe(2);
  });
});

describe("a real command", () => {
  const tsx = path.resolve(__dirname, "../node_modules/.bin/tsx");
  const synth = (args: string[]) => spawnSync(tsx, ["scripts/dev/dataset-synth.ts", ...args], { cwd: path.resolve(__dirname, ".."), encoding: "utf8" });

  it("npm run dataset:synth prints its usage for --help and refuses --bogus and a fractional --seed with exit 2", () => {
    const help = synth(["--help"]);
    expect(help.status).toBe(0);
    expect(help.stdout).toMatch(/^Usage: npm run dataset:synth -- --out DIR/);
    const bogus = synth(["--bogus"]);
    expect(bogus.status).toBe(2);
    expect(bogus.stdout).toBe("");
    expect(bogus.stderr).toMatch(/^npm run dataset:synth: Unknown option '--bogus'/);
    const seed = synth(["--out", "unused", "--seed", "1.5"]);
    expect(seed.status).toBe(2);
    expect(seed.stderr).toMatch(/^npm run dataset:synth: --seed must be a whole number from 0 to 4294967295, got "1\.5"/);
  }, 60_000);
});
