import type { Approach, FactSheet } from "@/lib/core/fact-sheet/schema";

/** The answers of a fact sheet the leaderboard shows and filters by; all null without a sheet. */
type FactSheetFacts = {
  parameterCount: number | null;
  isOpenWeights: boolean | null;
  approach: Approach | null;
  /** Used data from the source oral-history collections. */
  usesSourceData: boolean | null;
  /** The base model's knowledge cutoff, ISO month or date. */
  knowledgeCutoff: string | null;
};

export function factSheetFacts(sheet: FactSheet | null): FactSheetFacts {
  return {
    parameterCount: sheet?.parameters ?? null,
    isOpenWeights: sheet?.openWeights ?? null,
    approach: sheet?.approach ?? null,
    usesSourceData: sheet?.dataUsed.sourceCollections ?? null,
    knowledgeCutoff: sheet?.knowledgeCutoff ?? null,
  };
}
