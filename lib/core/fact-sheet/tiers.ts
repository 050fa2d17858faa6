import { hasConfiguration, isFactSheetComplete } from "@/lib/core/fact-sheet/completeness";
import type { FactSheet } from "@/lib/core/fact-sheet/schema";

/**
 * Provenance tiers, lowest to highest:
 * - reported: a paper's number, no per-sample outcomes on the platform;
 * - scored: the platform scored the uploaded file (every baseline and published entry);
 * - documented: scored, with the code and the prompts or configuration linked and a complete fact sheet (derived);
 * - reproduced: a maintainer re-ran the code and the platform found the same per-sample outcomes (stored, audited).
 */
export const PROVENANCE_TIERS = ["reported", "scored", "documented", "reproduced"] as const;
export type ProvenanceTier = (typeof PROVENANCE_TIERS)[number];

export const TIER_DESCRIPTIONS: Record<ProvenanceTier, string> = {
  reported: "A number from a paper: the platform has no per-sample outcomes for it.",
  scored: "The platform scored the uploaded predictions.",
  documented: "Scored, with code and configuration linked and a complete fact sheet.",
  reproduced: "A maintainer re-ran the code; the platform found the same per-sample outcomes.",
};

/** Whether a fact sheet earns "documented" for a scored entry. */
export function isDocumented(sheet: FactSheet | null): boolean {
  return sheet !== null && sheet.codeUrl !== null && hasConfiguration(sheet) && isFactSheetComplete(sheet);
}

/** The tier of a scored entry: reproduced when a maintainer recorded a matching reproduction, else documented or scored. */
export function scoredEntryTier(entry: { factSheet: FactSheet | null; isReproduced: boolean }): ProvenanceTier {
  if (entry.isReproduced) return "reproduced";
  return isDocumented(entry.factSheet) ? "documented" : "scored";
}
