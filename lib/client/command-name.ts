/**
 * How a participant runs the downloaded client: every suggestion the client prints ("follow it with: ...")
 * uses it, so it can be pasted as it is (the file from the dataset page is not on PATH as `irc-bench-client`).
 * In this repository `npm run --silent client -- ...` runs the same bundle.
 */
export const CLIENT_COMMAND = "node irc-bench-client.mjs";
