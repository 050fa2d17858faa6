/**
 * npm run --silent client -- COMMAND [options]   (or: node irc-bench-client.mjs COMMAND ...)
 *
 * The IRC-Bench command-line client: login with an API token, submit
 * prediction files and wait for their scores, read status, submissions and
 * quota, download the release. It talks only to the public and token API
 * (/api/openapi.json). Exit 0 done; 1 the predictions are invalid (one
 * FILE:LINE: message per problem on stderr); 2 anything else (usage, network,
 * credentials, quota, a server fault), as the offline scorer does.
 */
import { CLIENT_COMMAND } from "@/lib/client/command-name";
import { createInterface } from "node:readline";
import { parseArgs } from "node:util";
import { z } from "zod";
import { ApiClient } from "@/lib/client/api-client";
import { ClientError, type ExitStatus } from "@/lib/client/client-error";
import type { CommandContext } from "@/lib/client/commands/context";
import { DOWNLOAD_CHOICES, runDownload } from "@/lib/client/commands/download";
import { runList } from "@/lib/client/commands/list";
import { runFactSheetEdit, runFactSheetTemplate, runPublish } from "@/lib/client/commands/publish";
import { runLogin, runLogout } from "@/lib/client/commands/login";
import { runQuota } from "@/lib/client/commands/quota";
import { runStatus } from "@/lib/client/commands/status";
import { runSubmit } from "@/lib/client/commands/submit";
import { runVerifyLog } from "@/lib/client/commands/verify-log";
import { configPath, findSavedToken, normalizeServerUrl, readConfig } from "@/lib/client/config-file";

declare const IRC_BENCH_PLATFORM_VERSION: string | undefined;
const VERSION = typeof IRC_BENCH_PLATFORM_VERSION === "string" ? IRC_BENCH_PLATFORM_VERSION : "dev";
const DEFAULT_URL = "http://localhost:3000";

const USAGE = `Usage: ${CLIENT_COMMAND} COMMAND [options]
       (in the repository: npm run --silent client -- COMMAND [options])

Commands:
  login                      store an API token for the server (paste it, or pipe it on stdin);
                             create tokens on the site: Account -> API tokens
  logout                     forget the server's token
  submit FILE [--split dev|test] [--track open|closed] [--wait]
                             upload a prediction file; --wait follows it until it is scored
                             or failed, then prints the scores or the problems
  status ID                  a submission's status, and its scores once scored
  list                       your submissions, newest first
  quota                      your test submissions left and when the next one frees, and
                             what you used of the dev-upload limits
  publish ID --fact-sheet FILE --description TEXT
                             ask to publish a scored test submission with its fact sheet
                             (JSON, version 1); a bad answer is reported as FILE: field "..." ...
  fact-sheet template        print a valid example fact sheet to start from
  fact-sheet edit ID FILE    replace the fact sheet of your submission (until it is approved)
  download dev|test|kb|train [--out DIR] [--release ID]
                             a release file, checked against its SHA-256 (default DIR: .)
  verify-log                 check the server's public log: every record's hash and link, the
                             head's signature, and that it extends the head verified before
                             (remembered beside the token file); prints the head

Options:
  --url URL                  the server (default: IRC_BENCH_URL, else the server of the
                             last login, else ${DEFAULT_URL})
  --json                     print the API's JSON answer instead of text
  --interval SECONDS         with --wait: seconds between status checks (default 1)
  --timeout SECONDS          with --wait: stop waiting after this long (default 3600)
  --idempotency-key KEY      with submit: the key of an earlier attempt whose answer was lost
  -h, --help                 this help;  --version  the client's version

Environment: IRC_BENCH_URL (server), IRC_BENCH_TOKEN (a token instead of the saved one),
IRC_BENCH_CONFIG (the token file; default ~/.config/irc-bench/config.json, mode 600).

Exit status: 0 done; 1 the predictions are invalid (each problem on stderr as
FILE:LINE: message) or over the size limit, or the public log does not verify (naming
the first record that fails); 2 anything else: usage error (publishing a
dev submission included), a fact sheet the server refuses, network failure, missing or
refused credentials, no quota left (with when it frees), or a failure on the server.`;

const positiveSeconds = (flag: string) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, { error: `${flag} must be a number of seconds` })
    .transform(Number)
    .refine((value) => value > 0 && value <= 86_400, { error: `${flag} must be more than 0 and at most 86400 seconds` });

const optionsSchema = z.object({
  url: z.string().optional(),
  json: z.boolean().default(false),
  split: z.enum(["dev", "test"], { error: "--split must be dev or test" }).optional(),
  track: z.enum(["open", "closed"], { error: "--track must be open or closed" }).optional(),
  wait: z.boolean().default(false),
  interval: positiveSeconds("--interval").default(1),
  timeout: positiveSeconds("--timeout").default(3600),
  "idempotency-key": z.string().min(1).max(200, { error: "--idempotency-key must be at most 200 characters" }).optional(),
  out: z.string().min(1, { error: "--out needs a DIR" }).default("."),
  release: z.string().min(1).max(64).optional(),
  "fact-sheet": z.string().min(1, { error: "--fact-sheet needs a FILE" }).optional(),
  description: z.string().optional(),
});

type Parsed = { command: string; args: string[]; options: z.output<typeof optionsSchema>; isHelp: boolean; isVersion: boolean };

function usageError(message: string): ClientError {
  return new ClientError(2, [message, "Run with --help for usage."]);
}

function parseCommandLine(argv: readonly string[]): Parsed {
  let values: Record<string, unknown>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...argv],
      options: {
        url: { type: "string" },
        json: { type: "boolean" },
        split: { type: "string" },
        track: { type: "string" },
        wait: { type: "boolean" },
        interval: { type: "string" },
        timeout: { type: "string" },
        "idempotency-key": { type: "string" },
        out: { type: "string" },
        release: { type: "string" },
        "fact-sheet": { type: "string" },
        description: { type: "string" },
        help: { type: "boolean", short: "h" },
        version: { type: "boolean" },
      },
      allowPositionals: true,
    }));
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  const { help, version, ...rest } = values;
  const parsed = optionsSchema.safeParse(rest);
  if (!parsed.success) throw usageError(parsed.error.issues.map((issue) => issue.message).join("; "));
  const [command = "", ...args] = positionals;
  return { command, args, options: parsed.data, isHelp: help === true, isVersion: version === true };
}

function expectArgs(parsed: Parsed, count: number, what: string): void {
  if (parsed.args.length !== count) throw usageError(`${parsed.command} takes ${what}${parsed.args.length > count ? `; unexpected: ${parsed.args.slice(count).join(" ")}` : ""}`);
}

/** A pasted token: a hidden prompt on a terminal, else everything piped on stdin. */
async function readToken(baseUrl: string): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(Buffer.from(chunk as Buffer));
    return Buffer.concat(chunks).toString("utf8");
  }
  process.stderr.write(`Paste an API token for ${baseUrl} (create one at ${baseUrl}/account/tokens); it is not shown: `);
  const lines = createInterface({ input: process.stdin, terminal: true });
  // Nothing typed is echoed: the token must not end up in the terminal's scrollback.
  (lines as unknown as { _writeToOutput: (text: string) => void })._writeToOutput = () => undefined;
  const token = await new Promise<string>((resolve) => lines.once("line", resolve));
  lines.close();
  process.stderr.write("\n");
  return token;
}

async function run(argv: readonly string[]): Promise<ExitStatus> {
  const parsed = parseCommandLine(argv);
  if (parsed.isVersion) {
    process.stdout.write(`irc-bench-client ${VERSION}\n`);
    return 0;
  }
  if (parsed.isHelp || parsed.command === "" || parsed.command === "help") {
    process.stdout.write(`${USAGE}\n`);
    return parsed.command === "" && !parsed.isHelp ? 2 : 0;
  }
  const configFile = configPath();
  const config = await readConfig(configFile);
  // An empty IRC_BENCH_URL counts as unset, as shells make it easy to set one by accident.
  const baseUrl = normalizeServerUrl(parsed.options.url ?? (process.env.IRC_BENCH_URL || undefined) ?? config.defaultUrl ?? DEFAULT_URL);
  const token = process.env.IRC_BENCH_TOKEN || findSavedToken(config, baseUrl);
  const userAgent = `irc-bench-client/${VERSION} node/${process.versions.node}`;
  const context: CommandContext = {
    api: new ApiClient({ baseUrl, token, userAgent }),
    stdout: process.stdout,
    stderr: process.stderr,
    canRedrawLine: process.env.TERM !== "dumb",
    isJson: parsed.options.json,
    now: () => new Date(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
  };
  const { options } = parsed;
  switch (parsed.command) {
    case "login":
      expectArgs(parsed, 0, "no arguments (paste the token when asked, or pipe it on stdin)");
      return runLogin(context, { baseUrl, configFile, token: await readToken(baseUrl), userAgent });
    case "logout":
      expectArgs(parsed, 0, "no arguments");
      return runLogout(context, { baseUrl, configFile });
    case "submit":
      expectArgs(parsed, 1, "one FILE");
      return runSubmit(context, {
        file: parsed.args[0] ?? "",
        split: options.split,
        track: options.track,
        isWaiting: options.wait,
        intervalMs: options.interval * 1000,
        timeoutMs: options.timeout * 1000,
        idempotencyKey: options["idempotency-key"],
      });
    case "status":
      expectArgs(parsed, 1, "one submission ID");
      return runStatus(context, parsed.args[0] ?? "");
    case "verify-log":
      expectArgs(parsed, 0, "no arguments");
      return runVerifyLog(context, { configFile });
    case "list":
      expectArgs(parsed, 0, "no arguments");
      return runList(context);
    case "quota":
      expectArgs(parsed, 0, "no arguments");
      return runQuota(context);
    case "publish": {
      expectArgs(parsed, 1, "one submission ID (and --fact-sheet FILE --description TEXT)");
      if (options["fact-sheet"] === undefined) throw usageError(`publish needs --fact-sheet FILE (start from: ${CLIENT_COMMAND} fact-sheet template > sheet.json)`);
      if (options.description === undefined) throw usageError("publish needs --description TEXT: the method in words (at least 20 characters)");
      return runPublish(context, { id: parsed.args[0] ?? "", file: options["fact-sheet"], description: options.description });
    }
    case "fact-sheet": {
      const [sub, ...rest] = parsed.args;
      if (sub === "template" && rest.length === 0) return runFactSheetTemplate(context);
      if (sub === "edit" && rest.length === 2) return runFactSheetEdit(context, { id: rest[0] ?? "", file: rest[1] ?? "" });
      throw usageError("fact-sheet takes: template, or edit ID FILE");
    }
    case "download": {
      expectArgs(parsed, 1, `one of ${DOWNLOAD_CHOICES.join(", ")}`);
      const what = z.enum(DOWNLOAD_CHOICES).safeParse(parsed.args[0]);
      if (!what.success) throw usageError(`download takes one of ${DOWNLOAD_CHOICES.join(", ")}, not "${parsed.args[0]}"`);
      return runDownload(context, { what: what.data, outDir: options.out, release: options.release });
    }
    default:
      throw usageError(`Unknown command "${parsed.command}".`);
  }
}

run(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    if (error instanceof ClientError) {
      for (const line of error.lines) process.stderr.write(`${line}\n`);
      process.exitCode = error.status;
      return;
    }
    process.stderr.write(`irc-bench-client: unexpected error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 2;
  },
);
