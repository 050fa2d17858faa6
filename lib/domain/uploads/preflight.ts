import "server-only";
import { db } from "@/lib/platform/db";
import { AppError, type ProblemDetail } from "@/lib/core/errors";
import { decodeUtf8Line } from "@/lib/core/scoring/decode-utf8-line";
import { readLineBytes } from "@/lib/platform/io/read-line-bytes";
import { MAX_PREDICTION_LINE_BYTES } from "@/lib/core/scoring/limits";
import type { Split as DbSplit } from "@/lib/platform/generated/prisma";
import { loadKb, loadKnownSplitQids, loadSplitGold } from "@/lib/domain/scoring/load-gold";
import { checkInPool } from "@/lib/domain/uploads/preflight-pool";
import type { ScoredSplit, Track } from "@/lib/core/scoring/tracks";


type PreflightResult = {
  split: ScoredSplit;
  track: Track;
  sampleCount: number;
  /** Protocol §12: one record per sample of its answer in the unified view, in gold order (answer-digests.ts, key version ANSWER_KEY_VERSION). */
  answerDigests: Uint8Array<ArrayBuffer>;
};

/** How many non-blank lines are searched for an id; blank lines do not count (section 4: ignored wherever they stand). */
const ID_SCAN_LINES = 50;

/**
 * The first well-formed id string in the first non-blank lines of the file, to
 * tell which split it is for. Lines with problems (too long, not UTF-8, not
 * JSON, a lone surrogate) are skipped here: the validator lists them later.
 */
async function findFirstId(path: string): Promise<string | null> {
  let scanned = 0;
  for await (const { bytes, lineNo } of readLineBytes(path, { maxLineBytes: MAX_PREDICTION_LINE_BYTES })) {
    const decoded = bytes === null ? null : decodeUtf8Line(bytes);
    const text = decoded === null ? null : (lineNo === 1 ? decoded.replace(/^\uFEFF/, "") : decoded).trim();
    if (text === "") continue;
    scanned += 1;
    if (scanned > ID_SCAN_LINES) break;
    if (text === null) continue;
    try {
      const value: unknown = JSON.parse(text);
      if (value && typeof value === "object" && "id" in value && typeof value.id === "string" && value.id.isWellFormed()) return value.id;
    } catch {
      continue;
    }
  }
  return null;
}

/** Which scored split the file is for, read from its ids (protocol section 4: a file is for one split). */
async function detectSplit(path: string, releaseId: string, declaredSplit?: ScoredSplit): Promise<ScoredSplit> {
  const id = await findFirstId(path);
  // With the split declared, a file whose first lines are all broken still gets its problems listed by line.
  if (id === null && declaredSplit) return declaredSplit;
  if (id === null) {
    throw new AppError("validation", "No line of the file has an \"id\" string, so it matches no split. Each line must be a JSON object such as {\"id\": \"...\", \"prediction\": \"...\"}; choose the split on upload to see the problem of each line.");
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
  declaredSplit?: ScoredSplit;
  declaredTrack?: Track;
}): Promise<PreflightResult> {
  const split = await detectSplit(options.path, options.releaseId, options.declaredSplit);
  if (options.declaredSplit && options.declaredSplit !== split) {
    throw new AppError("validation", `You chose the ${options.declaredSplit} split, but the file's ids are ${split} samples.`);
  }
  const [kb, { sampleIds }, trainDevQids] = await Promise.all([
    loadKb(options.releaseId),
    loadSplitGold(options.releaseId, split as DbSplit),
    loadKnownSplitQids(options.releaseId),
  ]);
  // The line-by-line check runs in a worker thread: the event loop keeps serving reads meanwhile.
  const validation = await checkInPool({
    path: options.path,
    referenceKey: `${options.releaseId}:${split}`,
    sampleIds,
    kb,
    trainDevQids: [...trainDevQids],
    track: options.declaredTrack,
    split,
  });
  if (!validation.ok) {
    const problems: ProblemDetail[] = validation.problems;
    throw new AppError(
      "validation",
      `The file was rejected with ${validation.problemCount} problem(s); nothing was scored and no quota was used. Fix every listed line and upload again.`,
      { problems },
    );
  }
  return { split, track: validation.track, sampleCount: sampleIds.length, answerDigests: validation.answerDigests };
}
