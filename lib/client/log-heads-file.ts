import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { ClientError } from "./client-error";

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
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return { servers: {} };
    throw new ClientError(2, [`${file}: cannot be read: ${error instanceof Error ? error.message : String(error)}`]);
  }
  const parsed = headsFileSchema.safeParse((() => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return null;
    }
  })());
  if (!parsed.success) throw new ClientError(2, [`${file}: is not a file of verified log heads; move it away to start over (what it remembered is then forgotten).`]);
  return parsed.data;
}

export async function writeHeads(file: string, heads: HeadsFile): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(heads)}\n`, { mode: 0o600 });
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ClientError(2, [`${file}: cannot be written: ${error instanceof Error ? error.message : String(error)}`]);
  }
}
