/**
 * What `npm run score` runs: rebuilds dist/cli/irc-bench-score.mjs if any of
 * its inputs changed since the last build (a few ms of stat calls when
 * fresh), then runs it in this same process, so arguments, output and exit
 * status are the bundle's own (protocol section 11).
 */
import { pathToFileURL } from "node:url";
import { ensureBundle } from "../build/build-cli.mjs";

await import(pathToFileURL(await ensureBundle("scorer", "score")).href);
