import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Entity, Sample } from "@/lib/core/dataset/release-schema";
import { synthesizePredictions, type PredictionTrack } from "@/testing/synthetic/synth-predictions";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import type { ReleaseContent } from "@/lib/core/dataset/validate-release";
import { importRelease } from "@/lib/domain/releases/import-release";
import { buildGold, buildKbIndex, type GoldRecord, type KbIndex } from "@/lib/core/scoring/gold";
import { scorePredictions, type ScoredPredictions } from "@/lib/core/scoring/score-report";
import { validatePredictionText } from "@/lib/core/scoring/validate-predictions";

export type ScoredSplit = "dev" | "test";

export type TestRelease = {
  releaseId: string;
  content: ReleaseContent;
  kb: KbIndex;
  entityByQid: ReadonlyMap<string, Entity>;
};

/**
 * Synthesizes a small release (about 600 entities, 900/126/232 samples),
 * writes it to a temporary directory, imports it as the active release and
 * removes the directory again. `transform` may edit the content first (a
 * test's own collections, say).
 */
export async function importSmallRelease(seed = 7, transform?: (content: ReleaseContent) => void): Promise<TestRelease> {
  return importSyntheticRelease(seed, "small", transform);
}

/** The same at the paper's size (17,971 / 2,532 / 4,633 samples, about 12,000 entities): the size the section 12 attacks are measured on. */
export async function importFullRelease(seed = 7, transform?: (content: ReleaseContent) => void): Promise<TestRelease> {
  return importSyntheticRelease(seed, "full", transform);
}

async function importSyntheticRelease(seed: number, size: "small" | "full", transform?: (content: ReleaseContent) => void): Promise<TestRelease> {
  const content = synthesizeRelease({ seed, size });
  transform?.(content);
  const dir = await mkdtemp(path.join(os.tmpdir(), "irc-int-release-"));
  try {
    await writeRelease(dir, content);
    const result = await importRelease({ dir, activate: true });
    if (!result.isActive) throw new Error(`release ${result.name} ${result.version} was imported but is not active`);
    return {
      releaseId: result.releaseId,
      content,
      kb: buildKbIndex(content.entities),
      entityByQid: new Map(content.entities.map((entity) => [entity.qid, entity])),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function samplesOf(release: TestRelease, split: ScoredSplit): Sample[] {
  return release.content.samples[split];
}

export function goldOf(release: TestRelease, split: ScoredSplit): GoldRecord[] {
  return buildGold(samplesOf(release, split), release.kb);
}

/** One JSON line per sample of the split (testing/synthetic/synth-predictions.ts). */
export function predictionLines(release: TestRelease, split: ScoredSplit, track: PredictionTrack, accuracy: number, seed: number): string[] {
  return synthesizePredictions({ samples: samplesOf(release, split), entities: release.content.entities, track, accuracy, seed });
}

export function toJsonl(lines: readonly string[]): string {
  return lines.map((line) => `${line}\n`).join("");
}

/**
 * What the offline scorer (lib/core/scoring) makes of a prediction file against
 * the release's gold: the expected stored report, computed without the
 * database, the queue or the worker.
 */
export function scoreOffline(release: TestRelease, split: ScoredSplit, text: string, options: { seed: number; resamples: number }): ScoredPredictions {
  const gold = goldOf(release, split);
  const validation = validatePredictionText(text, { sampleIds: gold.map((record) => record.id), kbQids: release.kb, split });
  if (!validation.ok) {
    throw new Error(`offline scoring: the file is invalid: ${validation.problems.map((problem) => `${problem.line ?? "-"}: ${problem.message}`).join("; ")}`);
  }
  return scorePredictions({ ...validation, gold, kb: release.kb, split, seed: options.seed, resamples: options.resamples });
}
