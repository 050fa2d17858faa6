/**
 * What `npm run client -- ...` runs: rebuilds dist/cli/irc-bench-client.mjs if
 * any of its inputs changed since the last build, then runs it in this same
 * process, so arguments, output and exit status are the bundle's own.
 */
import { pathToFileURL } from "node:url";
import { ensureBundle } from "../build/build-cli.mjs";

await import(pathToFileURL(await ensureBundle("client", "client")).href);
