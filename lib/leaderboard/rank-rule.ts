/** The rank rule of protocol section 13, as the page, the API (`rank_rule`) and the exports state it. */
export const RANK_RULE =
  "An entry's rank is 1 + the number of entries significantly better than it: McNemar's test on per-sample outcomes " +
  "against every other entry of the view, Holm-adjusted across those comparisons, adjusted p < 0.05 and a higher " +
  "point estimate. Entries nobody beats significantly share rank 1; reported results have no per-sample outcomes and no rank.";
