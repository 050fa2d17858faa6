/**
 * Exit statuses of the command-line client, the scorer's (scripts/participant/score.ts):
 * 0 done; 1 the predictions are invalid (the server's line-numbered problems,
 * or a file over the size limit); 2 anything else that stopped the command:
 * usage, network, credentials, quota, a server fault.
 */
export type ExitStatus = 0 | 1 | 2;

/** A failure that ends the command with an exit status and lines for stderr. */
export class ClientError extends Error {
  constructor(
    readonly status: 1 | 2,
    readonly lines: readonly string[],
  ) {
    super(lines[0]);
    this.name = "ClientError";
  }
}
