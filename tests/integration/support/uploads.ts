import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import type { Submission } from "@/lib/platform/generated/prisma";
import { createSubmission } from "@/lib/domain/uploads/create-submission";
import { stageUpload, type StagedFile } from "@/lib/platform/files/staging";
import type { ScoredSplit } from "@/lib/core/scoring/tracks";
import type { Track } from "@/lib/core/scoring/tracks";
import { toJsonl } from "./release";

/** Streams the text to a staged temporary file, as an HTTP upload would be. */
export async function stageText(text: string): Promise<StagedFile> {
  return stageUpload(Readable.from([Buffer.from(text, "utf8")]), getEnv().UPLOAD_MAX_BYTES);
}

export type SubmitOptions = {
  userId: string;
  originalName?: string;
  declaredSplit?: ScoredSplit;
  declaredTrack?: Track;
};

/** Stages the lines and creates a submission from them (pre-flight, quota, store, queue). */
export async function submitLines(lines: readonly string[], options: SubmitOptions): Promise<Submission> {
  const staged = await stageText(toJsonl(lines));
  return createSubmission({
    userId: options.userId,
    staged,
    originalName: options.originalName ?? "predictions.jsonl",
    declaredSplit: options.declaredSplit,
    declaredTrack: options.declaredTrack,
  });
}

export async function fileExists(filePath: string): Promise<boolean> {
  return stat(filePath).then(
    () => true,
    () => false,
  );
}

/** How many test quota charges the ledger holds for a submission (0: free, a dev file or a baseline). */
export async function chargesOf(submissionId: string): Promise<number> {
  return db.quotaLedgerEntry.count({ where: { submissionId, kind: "CHARGE" } });
}
