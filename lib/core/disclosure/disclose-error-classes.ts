import { errorClassesOf, type ErrorClassSummary } from "@/lib/core/scoring/error-taxonomy";
import type { ErrorAnalysis } from "@/lib/core/submissions/sample-schemas";
import type { Perturbation } from "./disclose";
import { noiseOf, perturbCount, rateToTenths } from "./perturb";

/**
 * What may be learned of a submission's error classes (protocol section 12,
 * docs/integrity.md). Pure; the one place that decides it.
 *
 * - dev: everything (the dev gold is public): counts per class, per entity
 *   type, and the type-confusion matrix.
 * - test, a maintainer: the share of each class on the whole split, unrounded
 *   (maintainers see both slices and the whole split).
 * - test, the owner of a published entry: the share of each class on the
 *   ranking slice, with its n, from perturbed class counts (v1.3: each count
 *   keyed ENTRY/error/CLASS, shares over the sum of the perturbed counts, to
 *   0.1 percentage point): everything public about a test entry is on the
 *   ranking slice. No per-type counts, no confusion matrix, no raw counts.
 * - test, the owner before publication: nothing. The owner's numbers then come
 *   from the feedback slice and include no per-group numbers; a class count is
 *   a per-sample signal the owner could difference between two uploads.
 * - anyone else: nothing.
 */
type ErrorClassAsker = {
  split: "train" | "dev" | "test";
  isOwner: boolean;
  isMaintainer: boolean;
  isPublished: boolean;
};

/** The ranking slice's samples per class of a test file (null when not stored). */
type SliceClassCounts = { n: number; counts: Record<string, number> } | null;

/** Whether the asker may see anything of the file's error classes: decided before any work is done for them. */
export function mayDiscloseErrorClasses(asker: ErrorClassAsker): boolean {
  if (asker.split !== "test" || asker.isMaintainer) return true;
  return asker.isOwner && asker.isPublished;
}

function sharesOf(classes: readonly string[], counts: Record<string, number>, n: number, round: (value: number) => number): Record<string, number> {
  return Object.fromEntries(classes.map((name) => [name, round(n === 0 ? 0 : (counts[name] ?? 0) / n)]));
}

/** Section 12: each class count perturbed under ENTRY/error/CLASS; shares over the sum of the perturbed counts, half up to 0.1 point. */
function perturbedShares(classes: readonly string[], slice: NonNullable<SliceClassCounts>, perturbation: Perturbation): Record<string, number> {
  const counts = classes.map((name) => perturbCount(slice.counts[name] ?? 0, slice.n, noiseOf(perturbation.context, `${perturbation.entryId}/error/${name}`)));
  const total = counts.reduce((sum, count) => sum + count, 0);
  return Object.fromEntries(classes.map((name, index) => [name, total === 0 ? 0 : rateToTenths(counts[index]!, total)]));
}

export function discloseErrorClasses(
  submissionId: string,
  summary: ErrorClassSummary,
  rankingSlice: SliceClassCounts,
  asker: ErrorClassAsker,
  perturbation: Perturbation | null,
): ErrorAnalysis | null {
  if (!mayDiscloseErrorClasses(asker)) return null;
  const classes = [...errorClassesOf(summary.track)];
  if (asker.split !== "test") {
    return { kind: "dev", submissionId, track: summary.track, n: summary.n, classes, counts: summary.counts, byType: summary.byType, confusion: summary.confusion };
  }
  if (asker.isMaintainer) {
    return { kind: "test", submissionId, track: summary.track, slice: "whole", n: summary.n, classes, shares: sharesOf(classes, summary.counts, summary.n, (value) => value) };
  }
  if (rankingSlice === null || perturbation === null) return null;
  return { kind: "test", submissionId, track: summary.track, slice: "ranking", n: rankingSlice.n, classes, shares: perturbedShares(classes, rankingSlice, perturbation) };
}
