/**
 * npm run files:migrate [-- --from disk] [--to postgres]
 *
 * Copies every submission's prediction file from one file store to another:
 * by default from the disk store (IRC_DATA_DIR/submissions/, where releases
 * before the PostgreSQL store kept them) to the store IRC_FILE_STORE names.
 * Idempotent: files the target holds already are skipped, so it can run again
 * after an interruption. Exit 0 when every file is in the target store
 * afterwards, 1 when some are missing or damaged (listed), 2 on bad usage.
 */
import { choiceOption, parseCommandLine } from "../command-line";
import { getEnv } from "@/lib/platform/env";
import { createFileStore } from "@/lib/platform/files/file-store";
import type { FileStoreKind } from "@/lib/platform/files/store-contract";
import { migrateFiles } from "@/lib/platform/files/migrate-files";
import { runMain } from "@/lib/web/server/close-connections";

const KINDS = ["postgres", "disk", "s3"] as const satisfies readonly FileStoreKind[];

async function main(): Promise<number> {
  const command = parseCommandLine({
    name: "npm run files:migrate",
    usage: "Usage: npm run files:migrate [-- --from disk|postgres|s3] [--to disk|postgres|s3]\nDefaults: --from disk, --to the IRC_FILE_STORE store.",
    options: { from: { type: "string" }, to: { type: "string" } },
  });
  const from = choiceOption(command, "from", command.values.from, KINDS, "disk");
  const to = choiceOption(command, "to", command.values.to ?? getEnv().IRC_FILE_STORE, KINDS);
  if (from === to) command.fail(`--from and --to are both ${from}: nothing to migrate`);
  const result = await migrateFiles(createFileStore(from), createFileStore(to), { log: (line) => console.log(line) });
  console.log(
    `files:migrate ${from} -> ${to}: ${result.copied.length} copied, ${result.present.length} already there, ${result.missing.length} missing, ${result.corrupt.length} damaged.`,
  );
  return result.missing.length + result.corrupt.length > 0 ? 1 : 0;
}

runMain(main);
