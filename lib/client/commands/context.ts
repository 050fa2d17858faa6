import type { ApiClient } from "@/lib/client/api-client";

/** What every command gets: the API, where to write, and the clock (a parameter, so tests and formatting agree). */
export type CommandContext = {
  api: ApiClient;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** The terminal understands carriage return and "erase line" (not TERM=dumb): a progress line can be redrawn in place. */
  canRedrawLine: boolean;
  isJson: boolean;
  now: () => Date;
  sleep: (ms: number) => Promise<void>;
};

export function writeJson(context: CommandContext, value: unknown): void {
  context.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
