import { scoreReportSchema, type ScoreReport } from "@/lib/core/scoring/report-schema";

/**
 * Reads `Score.report` back with the very schema lib/core/scoring reports under
 * (protocol section 11), so a stored report is exactly what the CLI prints
 * less its comparisons (those live in Comparison rows). Null when a row does
 * not parse: such a row is skipped, never shown half-read.
 */
export function readStoredReport(stored: unknown): ScoreReport | null {
  const parsed = scoreReportSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
