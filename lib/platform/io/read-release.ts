import { createHash } from "node:crypto";
import { isUtf8 } from "node:buffer";
import { createReadStream } from "node:fs";
import { readFile, stat } from "node:fs/promises";
import path from "node:path";
import type { LeakageFinding } from "@/lib/core/dataset/find-leakage";
import {
  KB_FILE,
  META_FILE,
  SPLIT_FILES,
  SPLITS,
  type DatasetMeta,
  type Entity,
  type ReleaseFileName,
  type Sample,
  type Split,
  type SplitFile,
} from "@/lib/core/dataset/release-schema";
import { resolveReleaseFile } from "@/lib/platform/io/resolve-release-file";
import { createReleaseValidator, type ReleaseProblem, type ReleaseValidator } from "@/lib/core/dataset/validate-release";


export type { LeakageFinding } from "@/lib/core/dataset/find-leakage";

type FileDigest = { sha256: string; bytes: number };

export type LoadedRelease = {
  meta: DatasetMeta;
  entities: Entity[];
  /** Splits that were not requested are empty. */
  samples: Record<Split, Sample[]>;
  /** Keyed by file name ("kb.jsonl"); only the files that were read. */
  files: Record<string, FileDigest>;
};

type ReadReleaseResult =
  | { ok: true; release: LoadedRelease; leakage: LeakageFinding[] }
  | { ok: false; problems: ReleaseProblem[] };

type ReadReleaseOptions = {
  splits?: Split[];
  /** Accept a directory without dataset.json (the command-line scorer on a participant's downloads). */
  isMetaOptional?: boolean;
  /** Skip the leakage scan: leakage is then always empty (the command-line scorer never shows it). */
  isLeakageSkipped?: boolean;
  /** Skip the SHA-256 of kb.jsonl and the split files: `files` then lists dataset.json only (the command-line scorer shows none). */
  isDigestSkipped?: boolean;
};

function describeFsError(error: unknown): string {
  if (error instanceof Error && "code" in error) {
    if (error.code === "ENOENT") {
      return "missing file";
    }
    if (error.code === "EISDIR") {
      return "is a directory, expected a file";
    }
    if (error.code === "EACCES") {
      return "cannot be read: permission denied";
    }
  }
  return `cannot be read: ${error instanceof Error ? error.message : String(error)}`;
}

const NEWLINE = 0x0a;
/** Large reads: fewer chunks, fewer runs to decode and split. */
const READ_CHUNK_BYTES = 1024 * 1024;

/**
 * Streams a JSONL file line by line into the validator, hashing the raw bytes
 * as they pass (unless the caller needs no digest). Each chunk's complete
 * lines are decoded in one go when they are valid UTF-8 (the common case:
 * "\n" is ASCII, so the run is valid exactly when each of its lines is);
 * otherwise line by line, so a line that is not UTF-8 is reported with its
 * number and the rest still checked. Returns undefined when the file could
 * not be read or no digest was asked for.
 */
async function streamLinesInto(
  validator: ReleaseValidator,
  dir: string,
  file: typeof KB_FILE | SplitFile,
  diskName: string = file,
  isDigestSkipped = false,
): Promise<FileDigest | undefined> {
  const hash = isDigestSkipped ? null : createHash("sha256");
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  const emit = (bytes: Buffer): void => {
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      validator.addUndecodableLine(file, "line is not valid UTF-8");
      return;
    }
    validator.addLine(file, text);
  };
  const emitRun = (run: Buffer): void => {
    if (!isUtf8(run)) {
      for (let start = 0, end = run.indexOf(NEWLINE); start <= run.length; start = end + 1, end = run.indexOf(NEWLINE, start)) {
        if (end < 0) end = run.length;
        emit(run.subarray(start, end));
      }
      return;
    }
    for (const line of run.toString("utf8").split("\n")) {
      validator.addLine(file, line);
    }
  };
  let size = 0;
  let pending: Buffer[] = [];
  try {
    for await (const chunk of createReadStream(path.join(dir, diskName), { highWaterMark: READ_CHUNK_BYTES })) {
      const buffer = chunk as Buffer;
      hash?.update(buffer);
      size += buffer.length;
      const lastNewline = buffer.lastIndexOf(NEWLINE);
      if (lastNewline < 0) {
        pending.push(buffer);
        continue;
      }
      // Every complete line up to this chunk's last "\n", as one run without that "\n".
      pending.push(buffer.subarray(0, lastNewline));
      emitRun(pending.length === 1 ? (pending[0] as Buffer) : Buffer.concat(pending));
      pending = lastNewline + 1 < buffer.length ? [buffer.subarray(lastNewline + 1)] : [];
    }
  } catch (error) {
    validator.reportUnreadableFile(file, describeFsError(error));
    return undefined;
  }
  validator.startFile(file);
  if (pending.length > 0) {
    emitRun(Buffer.concat(pending));
  }
  return hash === null ? undefined : { sha256: hash.digest("hex"), bytes: size };
}

async function readMetaInto(validator: ReleaseValidator, dir: string, isMetaOptional: boolean): Promise<FileDigest | undefined> {
  let buffer: Buffer;
  try {
    buffer = await readFile(path.join(dir, META_FILE));
  } catch (error) {
    if (isMetaOptional && error instanceof Error && "code" in error && error.code === "ENOENT") {
      // A participant's folder of downloads (dev.jsonl + kb.jsonl) has no dataset.json.
      validator.addMetaText(JSON.stringify({ name: path.basename(path.resolve(dir)), version: "local", description: "" }));
      return undefined;
    }
    validator.reportUnreadableFile(META_FILE, describeFsError(error));
    return undefined;
  }
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(buffer);
  } catch {
    validator.reportUnreadableFile(META_FILE, "is not valid UTF-8");
    return undefined;
  }
  validator.addMetaText(text);
  return { sha256: createHash("sha256").update(buffer).digest("hex"), bytes: buffer.length };
}

/**
 * Reads and validates a maintainer's gold release directory (protocol
 * section 2): dataset.json, kb.jsonl and the requested split files (default
 * all three). Every problem is returned, each naming its file and, where a
 * line is to blame, its 1-based line; callers cap what they display.
 */
export async function readRelease(dir: string, options: ReadReleaseOptions = {}): Promise<ReadReleaseResult> {
  try {
    const info = await stat(dir);
    if (!info.isDirectory()) {
      return { ok: false, problems: [{ file: dir, message: "is not a directory; a release is a directory" }] };
    }
  } catch {
    return { ok: false, problems: [{ file: dir, message: "release directory does not exist" }] };
  }
  const splits = SPLITS.filter((split) => (options.splits ?? SPLITS).includes(split));
  const validator = createReleaseValidator({ splits, isLeakageSkipped: options.isLeakageSkipped });
  const files: Record<string, FileDigest> = {};
  const record = (file: ReleaseFileName, digest: FileDigest | undefined): void => {
    if (digest !== undefined) {
      files[file] = digest;
    }
  };
  record(META_FILE, await readMetaInto(validator, dir, options.isMetaOptional === true));
  const isDownloadNameAllowed = options.isMetaOptional === true;
  // Problems name the file as it is on disk (irc-bench-demo-1.0-dev.jsonl), digests the release file (dev.jsonl).
  const diskNames = new Map<string, string>();
  const lineFiles: (typeof KB_FILE | SplitFile)[] = [KB_FILE, ...splits.map((split) => SPLIT_FILES[split])];
  for (const file of lineFiles) {
    const resolution = await resolveReleaseFile(dir, file, isDownloadNameAllowed);
    if (!resolution.ok) {
      validator.reportUnreadableFile(file, resolution.message);
      continue;
    }
    if (resolution.name !== file) {
      diskNames.set(file, resolution.name);
    }
    record(file, await streamLinesInto(validator, dir, file, resolution.name, options.isDigestSkipped === true));
  }
  const result = validator.finish();
  if (!result.ok) {
    const problems = result.problems.map((problem) => {
      const diskName = diskNames.get(problem.file);
      return diskName === undefined ? problem : { ...problem, file: diskName };
    });
    return { ok: false, problems };
  }
  return { ok: true, release: { ...result.release, files }, leakage: result.leakage };
}
