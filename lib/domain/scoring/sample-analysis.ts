import "server-only";
import { gunzipSync, gzipSync } from "node:zlib";
import { z } from "zod";
import { db } from "@/lib/platform/db";
import { memoizeLoad } from "@/lib/platform/memo";
import type { Prisma, Split } from "@/lib/platform/generated/prisma";
import { buildKbNameIndex, classifySamples, countClassesAt, summarizeClasses, type ErrorClassSummary, type KbNameIndex } from "@/lib/core/scoring/error-taxonomy";
import type { GoldRecord, KbIndex } from "@/lib/core/scoring/gold";
import type { SampleOutcomes } from "@/lib/core/scoring/outcome-codes";
import { SCORER_VERSION } from "@/lib/core/scoring/score-report";
import type { TrackPredictions } from "@/lib/core/scoring/track-predictions";
import { getFileStore } from "@/lib/platform/files/file-store";
import { loadKb } from "@/lib/domain/scoring/load-gold";
import { readPredictionFile } from "@/lib/domain/uploads/read-prediction-file";
import { isAnalysisCurrent } from "@/lib/core/scoring/score-staleness";
import type { TestSlices } from "@/lib/core/slices/slice-membership";

/**
 * The error classes of a scored submission, stored beside its score (one row
 * per submission, upserted, so a repeated job leaves one result). On the dev
 * split the row keeps every sample's class and the parsed answer (the
 * open-world prediction, or the closed-world top 5), so the instance browser
 * answers from it without re-reading the file. On the test split it keeps the
 * aggregate summary only, with the ranking slice's counts per class beside the
 * whole split's: what a non-maintainer sees of a published test entry
 * (protocol section 12, lib/core/disclosure/disclose-error-classes.ts).
 */

/** Closed-world answers kept per sample: what the instance browser shows. */
const SHOWN_RANKING = 5;

/** The ranking slice's samples per class (test only; null on dev). */
type SliceClassCounts = { n: number; counts: Record<string, number> };
type StoredClassSummary = ErrorClassSummary & { rankingSlice: SliceClassCounts | null };

export type SampleAnalysisData = {
  scorerVersion: string;
  classes: Uint8Array<ArrayBuffer> | null;
  answerTypes: Uint8Array<ArrayBuffer> | null;
  answers: Uint8Array<ArrayBuffer> | null;
  summary: StoredClassSummary;
  computedAt: Date;
};

const countsSchema = z.record(z.string(), z.number().int());
const storedSummarySchema = z.object({
  track: z.enum(["open", "closed"]),
  n: z.number().int(),
  counts: countsSchema,
  byType: z.record(z.string(), z.object({ n: z.number().int(), counts: countsSchema })),
  confusion: z.record(z.string(), countsSchema),
  // Absent on rows stored before the ranking slice's counts were kept: such a test row is made again.
  rankingSlice: z.object({ n: z.number().int(), counts: countsSchema }).nullable().optional(),
});

/** A stored summary read with its schema; null when it does not parse or a test row lacks the ranking slice's counts. */
function readClassSummary(value: Prisma.JsonValue, split: Split): StoredClassSummary | null {
  const parsed = storedSummarySchema.safeParse(value);
  if (!parsed.success) return null;
  const rankingSlice = parsed.data.rankingSlice ?? null;
  if (split === "test" && rankingSlice === null) return null;
  return { ...(parsed.data as ErrorClassSummary), rankingSlice };
}

const namesCache = memoizeLoad((releaseId) => loadKb(releaseId).then(buildKbNameIndex), { max: 8 });

/** The KB's normalised names and aliases with their types, built once per release (imported releases never change). */
export function loadKbNames(releaseId: string): Promise<KbNameIndex> {
  return namesCache.get(releaseId);
}

export function buildSampleAnalysis(
  options: TrackPredictions & { split: Split; gold: readonly GoldRecord[]; kb: KbIndex; outcomes: SampleOutcomes; names: KbNameIndex; slices: TestSlices | null },
): SampleAnalysisData {
  const classified = classifySamples(options);
  const whole = summarizeClasses(classified, options.gold.map((record) => record.type));
  if (options.split === "test" && options.slices === null) throw new Error("a test file's error analysis needs the test slices");
  const summary = { ...whole, rankingSlice: options.slices === null ? null : countClassesAt(classified, options.slices.ranking) };
  const isDev = options.split === "dev";
  return {
    scorerVersion: SCORER_VERSION,
    classes: isDev ? new Uint8Array(classified.classes) : null,
    answerTypes: isDev ? new Uint8Array(classified.answerTypes) : null,
    answers: isDev ? encodeAnswers(options) : null,
    summary,
    computedAt: new Date(),
  };
}

function encodeAnswers(options: TrackPredictions & { gold: readonly GoldRecord[] }): Uint8Array<ArrayBuffer> {
  const answers =
    options.track === "open"
      ? options.gold.map((record) => options.predictions.get(record.id) ?? "")
      : options.gold.map((record) => (options.predictions.get(record.id) ?? []).slice(0, SHOWN_RANKING));
  return new Uint8Array(gzipSync(JSON.stringify(answers)));
}

const storedAnswersSchema = z.union([z.array(z.string()), z.array(z.array(z.string()))]);

/** The answers of a dev analysis row, in gold order. */
export function decodeAnswers(bytes: Uint8Array): string[] | string[][] {
  return storedAnswersSchema.parse(JSON.parse(gunzipSync(bytes).toString("utf8")));
}

/** The upsert of one analysis row (inside the worker's score transaction: pass its client). */
export function upsertSampleAnalysis(submissionId: string, data: SampleAnalysisData, client: Prisma.TransactionClient = db) {
  const row = { ...data, summary: data.summary as object };
  return client.sampleAnalysis.upsert({ where: { submissionId }, create: { submissionId, ...row }, update: row });
}

/**
 * The submission's error analysis at the current scorer. A scored submission
 * whose analysis is missing (scored before this table existed) or older than
 * the scorer gets one now, once: its file is read and validated as the worker
 * would, then the row is stored.
 */
export async function currentSampleAnalysis(submission: {
  id: string;
  releaseId: string;
  split: Split;
  track: "open" | "closed";
  fileSha256: string;
}): Promise<{ summary: StoredClassSummary; computedAt: Date }> {
  const where = { submissionId: submission.id };
  const existing = await db.sampleAnalysis.findUnique({ where, select: { scorerVersion: true, summary: true, computedAt: true } });
  const existingSummary = existing && isAnalysisCurrent(existing) ? readClassSummary(existing.summary, submission.split) : null;
  if (existing && existingSummary) return { summary: existingSummary, computedAt: existing.computedAt };
  const [{ gold, validation }, score] = await Promise.all([
    readPredictionFile(getFileStore().read(submission.fileSha256), { releaseId: submission.releaseId, split: submission.split, track: submission.track }),
    db.score.findUniqueOrThrow({ where, select: { outcomes: true } }),
  ]);
  if (!validation.ok) throw new Error(`submission ${submission.id}: its stored file no longer validates`);
  const data = buildSampleAnalysis({
    ...validation,
    split: submission.split,
    gold: gold.gold,
    kb: gold.kb,
    outcomes: { track: submission.track, codes: score.outcomes },
    names: await loadKbNames(submission.releaseId),
    slices: gold.slices,
  });
  await upsertSampleAnalysis(submission.id, data);
  return { summary: data.summary, computedAt: data.computedAt };
}
