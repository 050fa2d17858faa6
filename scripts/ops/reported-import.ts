/**
 * npm run reported:import -- FILE [--replace]
 *
 * Imports results reported in papers (lib/core/dataset/reported-schema.ts) into
 * the release the file names. Exit 0 imported, 1 the file was rejected or its
 * release is not imported, 2 usage error or unreadable file.
 */
import { readFile } from "node:fs/promises";
import { parseCommandLine } from "../command-line";
import { db } from "@/lib/platform/db";
import { isAppError } from "@/lib/core/errors";
import { importReportedResults } from "@/lib/domain/releases/import-reported-results";
import { parseReportedText } from "@/lib/core/dataset/reported-schema";

const USAGE = `Usage: npm run reported:import -- FILE [--replace]

Imports a JSON file of results reported in papers, e.g.
data/reported/irc-bench-1.0.json. The file names its release
({"release": {"name": ..., "version": ...}}); its rows attach to that
release only, and the import is refused when it is not imported.

  --replace   remove the release's other reported results first
  --help      show this help

Rates are fractions in [0, 1]. Every problem is printed as FILE: PATH: message.`;

async function main(): Promise<number> {
  const parsed = parseCommandLine({
    name: "npm run reported:import",
    usage: USAGE,
    options: { replace: { type: "boolean" } },
    positionals: { min: 1, max: 1 },
  });
  const file = parsed.positionals[0]!;
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    console.error(`${file}: cannot be read: ${error instanceof Error ? error.message : String(error)}`);
    return 2;
  }
  const checked = parseReportedText(text);
  if (!checked.ok) {
    for (const problem of checked.problems) console.error(`${file}: ${problem.path}: ${problem.message}`);
    console.error(`${file}: rejected with ${checked.problems.length} problem(s); nothing was written.`);
    return 1;
  }
  try {
    const result = await importReportedResults({ file: checked.file, replace: parsed.values.replace === true });
    for (const warning of result.warnings) console.warn(`${file}: warning: ${warning}`);
    console.log(
      `Reported results for ${result.release.name} ${result.release.version}: ${result.created} added, ${result.updated} updated` +
        (parsed.values.replace ? `, ${result.removed} removed` : "") +
        ".",
    );
    return 0;
  } catch (error) {
    if (isAppError(error)) {
      for (const problem of error.problems) console.error(`${file}: ${problem.message}`);
      console.error(`${file}: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
