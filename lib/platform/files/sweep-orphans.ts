import "server-only";
import { getFileStore } from "@/lib/platform/files/file-store";
import { STAGED_FILE_MAX_AGE_MS, sweepStagedFiles } from "@/lib/platform/files/staging";

/** A stored file nobody refers to is removed once it has been unused this long. */
const ORPHAN_FILE_MAX_AGE_MS = 60 * 60 * 1000;

type SweepResult = { stagedFiles: number; storedFiles: number };

/**
 * Removes what failed uploads can leave behind: staged .part files of this
 * machine older than an hour (a process killed mid-upload), and stored files
 * no submission refers to (a disk or S3 write whose commit then failed, or a
 * deleted account's files). Safe to run anywhere, any number of times at once.
 */
export async function sweepOrphans(now: Date = new Date()): Promise<SweepResult> {
  const stagedFiles = await sweepStagedFiles(STAGED_FILE_MAX_AGE_MS, now.getTime());
  const store = getFileStore();
  const storedFiles = store.sweepUnreferenced ? await store.sweepUnreferenced(new Date(now.getTime() - ORPHAN_FILE_MAX_AGE_MS)) : 0;
  return { stagedFiles, storedFiles };
}
