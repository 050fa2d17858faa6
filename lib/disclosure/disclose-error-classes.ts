import { errorClassesOf, type ErrorClassSummary } from "@/lib/scoring/error-taxonomy";
import type { ErrorAnalysis } from "@/lib/sample-browser/schemas";
import { roundRate } from "./disclose";

/**
 * What may be learned of a submission's error classes (protocol section 12,
 * docs/integrity.md). Pure.
 *
 * - dev: everything (the dev gold is public): counts per class, per entity
 *   type, and the type-confusion matrix.
 * - test: nothing per sample, ever, and nothing at all before publication
 *   (a class count of an unpublished file is a per-sample signal the owner
 *   could difference between two uploads). After publication its owner (and a
 *   maintainer) sees the share of each class overall, rounded like every
 *   published rate (0.1 percentage point); no per-type counts, no confusion
 *   matrix, no raw counts.
 */
type ErrorClassAsker = {
  split: "train" | "dev" | "test";
  isOwner: boolean;
  isMaintainer: boolean;
  isPublished: boolean;
};

export function discloseErrorClasses(submissionId: string, summary: ErrorClassSummary, asker: ErrorClassAsker): ErrorAnalysis | null {
  const classes = [...errorClassesOf(summary.track)];
  if (asker.split !== "test") {
    return { kind: "dev", submissionId, track: summary.track, n: summary.n, classes, counts: summary.counts, byType: summary.byType, confusion: summary.confusion };
  }
  if (!asker.isPublished || !(asker.isOwner || asker.isMaintainer)) return null;
  const shares = Object.fromEntries(classes.map((name) => [name, roundRate(summary.n === 0 ? 0 : (summary.counts[name] ?? 0) / summary.n)]));
  return { kind: "test", submissionId, track: summary.track, n: summary.n, classes, shares };
}
