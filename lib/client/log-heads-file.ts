import path from "node:path";
import { z } from "zod";
import { readJsonFile, writeJsonFile } from "./json-file";

/**
 * What `verify-log` remembers per server, beside the token file
 * (config-file.ts): the public key it verified with (trusted on first use)
 * and the hash of every record it verified, so a later log that does not
 * extend them is refused naming the first record that differs.
 *
 *   DIR/public-log-heads.json   with DIR the folder of the token file
 */
const headsFileSchema = z.object({
  servers: z
    .record(
      z.string(),
      z.object({ publicKey: z.string(), seq: z.number().int().nonnegative(), hash: z.string(), hashes: z.array(z.string()), verifiedAt: z.string() }),
    )
    .default({}),
});
type HeadsFile = z.output<typeof headsFileSchema>;

export function headsPath(configFile: string): string {
  return path.join(path.dirname(configFile), "public-log-heads.json");
}

export async function readHeads(file: string): Promise<HeadsFile> {
  return readJsonFile(file, headsFileSchema, { servers: {} }, "move it away to start over (the log heads it remembered are then forgotten).");
}

export async function writeHeads(file: string, heads: HeadsFile): Promise<void> {
  await writeJsonFile(file, heads);
}
