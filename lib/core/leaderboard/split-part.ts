import type { RowKind } from "./leaderboard-types";

/** The samples a public row's numbers are on (protocol section 12), as the API and the exports name them. */
export const SPLIT_PARTS = ["ranking slice", "whole test split"] as const;
type SplitPart = (typeof SPLIT_PARTS)[number];

/** Reported results (papers) are on the whole test split; everything the platform scored is public on the ranking slice. */
export function splitPartOf(kind: RowKind): SplitPart {
  return kind === "reported" ? "whole test split" : "ranking slice";
}
