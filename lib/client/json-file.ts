import { chmod, mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import type { z } from "zod";
import { ClientError } from "./client-error";

/**
 * The client's own files (the token file, the verified log heads): JSON read
 * through a schema, written atomically and readable by their owner only.
 */

/**
 * The file's value through `schema`; `empty` when there is no file. A file that cannot be read, is not
 * JSON or does not match says so with `fix` (what to do about it), exit code 2.
 */
export async function readJsonFile<Schema extends z.ZodType>(file: string, schema: Schema, empty: z.output<Schema>, fix: string): Promise<z.output<Schema>> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if (error instanceof Error && "code" in error && error.code === "ENOENT") return empty;
    throw new ClientError(2, [`${file}: cannot be read: ${error instanceof Error ? error.message : String(error)}`]);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new ClientError(2, [`${file}: is not JSON; ${fix}`]);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new ClientError(2, [`${file}: ${issue?.path.join(".") || "file"} ${issue?.message ?? "is invalid"}; ${fix}`]);
  }
  return parsed.data;
}

/** Writes the file readable by its owner only (0600, in a 0700 folder), atomically, whatever mode an older copy had. */
export async function writeJsonFile(file: string, value: unknown, spacing?: number): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, `${JSON.stringify(value, null, spacing)}\n`, { mode: 0o600 });
    // The umask may have narrowed the mode further, never widened it; chmod makes it exactly 600.
    await chmod(temporary, 0o600);
    await rename(temporary, file);
  } catch (error) {
    await rm(temporary, { force: true });
    throw new ClientError(2, [`${file}: cannot be written: ${error instanceof Error ? error.message : String(error)}`]);
  }
}
