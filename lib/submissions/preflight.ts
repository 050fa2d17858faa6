import "server-only";
import { db } from "@/lib/db";
import { AppError, type ProblemDetail } from "@/lib/errors";
import type { Split as DbSplit } from "@/lib/generated/prisma";
import { readLines } from "@/lib/io/read-lines";
import { loadKb, loadSplitGold } from "@/lib/submissions/load-gold";
import { PredictionValidator, type PredictionValidationResult } from "@/lib/scoring/validate-predictions";
import type { Track } from "@/lib/scoring/tracks";

export type ScoredSplitName = "dev" | "test";
export type PreflightResult = {
  split: ScoredSplitName;
  track: Track;
  sampleCount: number;
  validation: Extract<PredictionValidationResult, { ok: true }>;
};

const ID_SCAN_LINES = 50;

/** The first id found in the first lines of the file, to tell which split it is for. */
async function findFirstId(path: string): Promise<string | null> {
  for await (const { line, lineNo } of readLines(path)) {
    if (lineNo > ID_SCAN_LINES) break;
    const text = line.replace(/^\uFEFF/, "").trim();
    if (text === "") continue;
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === "object" && "id" in value && typeof value.id === "string") return value.id;
    } catch {
      continue;
    }
  }
  return null;
}

/** Which scored split the file is for, read from its ids (protocol section 4: a file is for one split). */
export async function detectSplit(path: string, releaseId: string): Promise<ScoredSplitName> {
  const id = await findFirstId(path);
  if (id === null) {
    throw new AppError("validation", "No line of the file has an \"id\" string, so it matches no split. Each line must be a JSON object such as {\"id\": \"...\", \"prediction\": \"...\"}.");
  }
  const sample = await db.sample.findUnique({ where: { releaseId_sampleId: { releaseId, sampleId: id } }, select: { split: true } });
  if (!sample) {
    throw new AppError("validation", `The id "${id.slice(0, 80)}" is not a sample of the active release, so the file matches neither the dev nor the test split.`);
  }
  if (sample.split === "train") {
    throw new AppError("validation", `The id "${id.slice(0, 80)}" is a training sample. Submit predictions for the dev or the test split.`);
  }
  return sample.split;
}

/**
 * The protocol's validation of a whole prediction file, run before anything is
 * queued: a file rejected here is not stored and costs no quota.
 */
export async function runPreflight(options: {
  path: string;
  releaseId: string;
  declaredSplit?: ScoredSplitName;
  declaredTrack?: Track;
}): Promise<PreflightResult> {
  const split = await detectSplit(options.path, options.releaseId);
  if (options.declaredSplit && options.declaredSplit !== split) {
    throw new AppError("validation", `You chose the ${options.declaredSplit} split, but the file's ids are ${split} samples.`);
  }
  const [kb, { sampleIds }] = await Promise.all([loadKb(options.releaseId), loadSplitGold(options.releaseId, split as DbSplit)]);
  const validator = new PredictionValidator({ sampleIds, kbQids: kb, track: options.declaredTrack, split });
  for await (const { line, lineNo } of readLines(options.path)) validator.addLine(line, lineNo);
  const validation = validator.finish();
  if (!validation.ok) {
    const problems: ProblemDetail[] = validation.problems;
    throw new AppError(
      "validation",
      `The file was rejected with ${validation.problemCount} problem(s); nothing was scored and no quota was used. Fix every listed line and upload again.`,
      { problems },
    );
  }
  return { split, track: validation.track, sampleCount: sampleIds.length, validation };
}
