import { buildFactSheet, completeFactSheet } from "@/lib/core/fact-sheet/build-fact-sheet";
import { APPROACHES, type FactSheet } from "@/lib/core/fact-sheet/schema";
import type { SyntheticEntry } from "./synthetic-entries";

/**
 * Fact sheets of the seeded leaderboard: two entries in three answer every
 * question (documented tier), the others leave some answers "not stated";
 * approaches, source-data use and cutoffs vary, so every leaderboard filter
 * has entries on both sides. Deterministic by the entry's index.
 */
export function syntheticFactSheet(entry: SyntheticEntry, index: number): FactSheet {
  const approach = APPROACHES[index % APPROACHES.length] ?? "other";
  const answers = {
    team: `team ${entry.team + 1}`,
    approach,
    parameters: entry.parameterCount === null ? null : Math.round(entry.parameterCount),
    openWeights: entry.isOpenWeights,
    knowledgeCutoff: index % 2 === 0 ? "2023-12" : "2027-01",
    dataUsed: { sourceCollections: index % 4 === 1, details: entry.isBaseline ? "" : "none" },
  };
  if (index % 3 === 2 || entry.isOpenWeights === null || entry.parameterCount === null) {
    return buildFactSheet(entry.system, { ...answers, codeUrl: entry.isBaseline ? null : `https://example.org/${entry.system.toLowerCase()}` });
  }
  return completeFactSheet(entry.system, { ...answers, openWeights: entry.isOpenWeights, parameters: answers.parameters });
}
