import "server-only";
import { requireOwnerOrMaintainer, type Actor, type UserActor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { memoizeLoad } from "@/lib/platform/memo";
import { AppError } from "@/lib/core/errors";
import { currentSampleAnalysis, decodeAnswers } from "@/lib/domain/scoring/sample-analysis";
import { loadDevSplit, type DevSplit } from "./load-dev-samples";
import { prepareRun, type PreparedRun } from "@/lib/core/submissions/sample-rows";

/**
 * A scored dev run the asker may read per sample (its owner or a maintainer),
 * with its stored outcomes, classes and answers decoded once per process and
 * score (a small cache keyed by the analysis' time, so a re-score is seen at
 * once). Test submissions are refused: their per-sample outcomes never leave
 * the server (protocol sections 3 and 12).
 */
export type DevRun = {
  id: string;
  userId: string;
  releaseId: string;
  track: "open" | "closed";
  originalName: string;
  note: string;
  createdAt: Date;
  viewer: UserActor;
  split: DevSplit;
  run: PreparedRun;
};


export async function loadDevRun(actor: Actor, submissionId: string): Promise<DevRun> {
  const submission = await db.submission.findUnique({
    where: { id: submissionId },
    select: {
      id: true,
      userId: true,
      releaseId: true,
      split: true,
      track: true,
      status: true,
      fileSha256: true,
      originalName: true,
      note: true,
      createdAt: true,
      score: { select: { computedAt: true } },
    },
  });
  if (!submission) throw new AppError("not_found", "Not found.");
  const viewer = requireOwnerOrMaintainer(actor, submission.userId);
  if (submission.split !== "dev") {
    throw new AppError("not_found", "Per-sample outcomes exist for dev submissions only: the test split's gold stays hidden.");
  }
  if (submission.status !== "SCORED" || !submission.score) throw new AppError("not_found", "This submission has no scores yet.");
  const analysisTime = (await currentSampleAnalysis(submission)).computedAt;
  const split = await loadDevSplit(submission.releaseId);
  const run = await cachedRun(submissionId, analysisTime);
  return {
    id: submission.id,
    userId: submission.userId,
    releaseId: submission.releaseId,
    track: submission.track,
    originalName: submission.originalName,
    note: submission.note,
    createdAt: submission.createdAt,
    viewer,
    split,
    run,
  };
}

/** A dev run's prepared rows, kept per submission and analysis time (a re-score makes a new key). */
const runCache = memoizeLoad(async (key) => {
  const [submissionId = ""] = key.split(":");
  const { track, releaseId } = await db.submission.findUniqueOrThrow({ where: { id: submissionId }, select: { track: true, releaseId: true } });
  return readRun(submissionId, track, await loadDevSplit(releaseId));
}, { max: 24 });

function cachedRun(submissionId: string, analysisTime: Date): Promise<PreparedRun> {
  return runCache.get(`${submissionId}:${analysisTime.getTime()}`);
}

async function readRun(submissionId: string, track: "open" | "closed", split: DevSplit): Promise<PreparedRun> {
  const [score, analysis] = await Promise.all([
    db.score.findUniqueOrThrow({ where: { submissionId }, select: { outcomes: true } }),
    db.sampleAnalysis.findUniqueOrThrow({ where: { submissionId }, select: { classes: true, answerTypes: true, answers: true } }),
  ]);
  if (!analysis.classes || !analysis.answerTypes || !analysis.answers) throw new Error(`submission ${submissionId}: its analysis has no per-sample part`);
  const stored = {
    submissionId,
    track,
    outcomes: new Uint8Array(score.outcomes),
    classes: new Uint8Array(analysis.classes),
    answerTypes: new Uint8Array(analysis.answerTypes),
    answers: decodeAnswers(analysis.answers),
  };
  if (stored.outcomes.length !== split.samples.length || stored.answers.length !== split.samples.length) {
    throw new Error(`submission ${submissionId}: its stored outcomes cover ${stored.outcomes.length} samples, the dev split ${split.samples.length}`);
  }
  return prepareRun(stored, split.kb);
}
