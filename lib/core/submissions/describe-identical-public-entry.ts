/**
 * The sentence for a test file identical to another account's public entry
 * (find-identical-public-entry.ts), the same on the submission page and in the
 * command-line client. Pure: the CLI bundle imports it.
 */
export function describeIdenticalPublicEntry(entry: { system: string; isBaseline: boolean }, reader: "owner" | "maintainer"): string {
  const name = `the public ${entry.isBaseline ? "baseline" : "entry"} "${entry.system}"`;
  return reader === "owner"
    ? `This file is identical, byte for byte, to ${name}: its scores are that entry's, already public. A maintainer reviewing a publication request for it reads this too.`
    : `Identical, byte for byte, to ${name} of another account.`;
}
