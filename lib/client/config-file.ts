import os from "node:os";
import path from "node:path";
import { z } from "zod";
import { ClientError } from "./client-error";
import { readJsonFile, writeJsonFile } from "./json-file";

/**
 * Where the client keeps the API tokens pasted into `login`: one JSON file,
 * mode 600 in a mode 700 folder, one token per server URL.
 *
 *   IRC_BENCH_CONFIG            the file itself, if set
 *   $XDG_CONFIG_HOME/irc-bench/config.json, else ~/.config/irc-bench/config.json
 */
const configFileSchema = z.object({
  /** The server `login` was last run against: commands use it when no --url or IRC_BENCH_URL is given. */
  defaultUrl: z.string().optional(),
  servers: z.record(z.string(), z.object({ token: z.string(), savedAt: z.string() })).default({}),
});
type ConfigFile = z.output<typeof configFileSchema>;

export function configPath(env: Partial<Record<string, string>> = process.env): string {
  if (env.IRC_BENCH_CONFIG) return path.resolve(env.IRC_BENCH_CONFIG);
  const base = env.XDG_CONFIG_HOME ? env.XDG_CONFIG_HOME : path.join(env.HOME ?? os.homedir(), ".config");
  return path.join(base, "irc-bench", "config.json");
}

export async function readConfig(file: string): Promise<ConfigFile> {
  return readJsonFile(file, configFileSchema, { servers: {} }, "delete it and run login again.");
}

export async function writeConfig(file: string, config: ConfigFile): Promise<void> {
  await writeJsonFile(file, config, 2);
}

/** Server URLs are compared without a trailing slash. */
export function normalizeServerUrl(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ClientError(2, [`"${value}" is not a URL; give the server as http(s)://host[:port], with --url or IRC_BENCH_URL.`]);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ClientError(2, [`"${value}" is not an http(s) URL.`]);
  }
  return url.toString().replace(/\/+$/, "");
}

/** Names every machine gives itself: a token saved for one of them is this machine's server under the others too. */
const LOOPBACK_HOSTS = new Set(["localhost", "127.0.0.1", "[::1]"]);

/** The server a URL names, for finding its saved token: loopback hosts are one host (localhost:3000 is 127.0.0.1:3000). */
function serverIdentity(baseUrl: string): string {
  const url = new URL(baseUrl);
  if (LOOPBACK_HOSTS.has(url.hostname) || /^127\.\d+\.\d+\.\d+$/.test(url.hostname)) url.hostname = "localhost";
  return url.toString().replace(/\/+$/, "");
}

/** The saved entries for `baseUrl`: its own, else one saved under another loopback name of the same port. */
export function savedServerKeys(config: ConfigFile, baseUrl: string): string[] {
  const identity = serverIdentity(baseUrl);
  const keys = Object.keys(config.servers).filter((key) => URL.canParse(key) && serverIdentity(key) === identity);
  // The exact URL first, so a token saved for it wins over an alias's.
  return keys.sort((a, b) => Number(b === baseUrl) - Number(a === baseUrl));
}

export function findSavedToken(config: ConfigFile, baseUrl: string): string | undefined {
  const [key] = savedServerKeys(config, baseUrl);
  return key === undefined ? undefined : config.servers[key]?.token;
}
