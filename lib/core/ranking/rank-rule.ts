/** The rank rule of protocol section 13, as the page, the API (`rank_rule`) and the exports state it. */
export const RANK_RULE =
  "An entry's rank interval is [1 + the number of entries significantly better than it, N − the number of entries it is " +
  "significantly better than], N the entries ranked in the view: McNemar's exact test on per-sample outcomes of the ranking " +
  "slice against every other entry of the view, Holm-adjusted across those comparisons, adjusted p < 0.05 and a higher " +
  "point estimate. It shows as 3 when both ends agree and 2–5 otherwise; entries nobody beats significantly start at 1; " +
  "reported results have no per-sample outcomes and no rank.";
