/**
 * What `npm run score` runs: rebuilds dist/cli/irc-bench-score.mjs if any of
 * its inputs changed since the last build (a few ms of stat calls when
 * fresh), then runs it in this same process, so arguments, output and exit
 * status are the bundle's own (protocol section 11).
 */
import { pathToFileURL } from "node:url";
import { BUNDLE_PATH, buildCli, isBundleFresh } from "./build-cli.mjs";

if (!isBundleFresh()) {
  try {
    await buildCli();
  } catch (error) {
    process.stderr.write(`score: cannot build the scorer: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(2);
  }
}
await import(pathToFileURL(BUNDLE_PATH).href);
