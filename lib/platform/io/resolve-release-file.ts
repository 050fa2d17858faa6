import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import type { KB_FILE, SplitFile } from "@/lib/core/dataset/release-constants";

/** A site download is named RELEASE-VERSION-FILE, e.g. irc-bench-demo-1.0-dev.jsonl (lib/domain/releases/serve-download.ts). */
const DOWNLOAD_NAME_EXAMPLE_PREFIX = "irc-bench-demo-1.0-";

type ReleaseFileResolution =
  | { ok: true; name: string }
  | { ok: false; message: string };

function isMissing(error: unknown): boolean {
  return error instanceof Error && "code" in error && error.code === "ENOENT";
}

/**
 * The name under which a release file is in the directory. A maintainer's
 * release has the plain names; a participant's folder of downloads may keep
 * the names the site gives them (curl -O -J, a browser), so with
 * isDownloadNameAllowed a missing dev.jsonl is also looked for as the one
 * file named *-dev.jsonl. Several candidates are refused rather than guessed.
 */
export async function resolveReleaseFile(
  dir: string,
  file: typeof KB_FILE | SplitFile,
  isDownloadNameAllowed: boolean,
): Promise<ReleaseFileResolution> {
  try {
    await stat(path.join(dir, file));
    return { ok: true, name: file };
  } catch (error) {
    if (!isDownloadNameAllowed || !isMissing(error)) {
      return { ok: true, name: file };
    }
  }
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return { ok: true, name: file };
  }
  const candidates = names.filter((name) => name.endsWith(`-${file}`)).sort();
  if (candidates.length === 1) {
    return { ok: true, name: candidates[0] as string };
  }
  if (candidates.length === 0) {
    return {
      ok: false,
      message: `missing file: looked for ${file} or a site download named *-${file} (such as ${DOWNLOAD_NAME_EXAMPLE_PREFIX}${file})`,
    };
  }
  return {
    ok: false,
    message: `missing file: no ${file}, and several site downloads could be it (${candidates.join(", ")}); keep one release's files in the folder or rename one to ${file}`,
  };
}

