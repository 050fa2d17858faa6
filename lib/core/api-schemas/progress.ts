import { z } from "zod";
import { component } from "./registry";
import { P_VALUE_BUCKETS } from "@/lib/core/disclosure/disclose";
import { SPLIT_PARTS } from "@/lib/core/leaderboard/split-part";

/** Body of GET /api/leaderboard/progress (lib/core/leaderboard/progress-api.ts, docs/leaderboard.md "Progress over time"). */

const pointSchema = z.object({
  id: z.string().describe("the entry id, or reported:<id> for a paper's number"),
  system: z.string(),
  kind: z.enum(["submission", "baseline", "reported"]),
  split_part: z.enum(SPLIT_PARTS).describe("the samples of this point's value (protocol section 12): reported results (papers) on the whole test split, the rest on the ranking slice"),
  date: z.string().describe("UTC day, YYYY-MM-DD: publication (baselines: scoring); a reported row's paper date"),
  value: z.number().describe("the disclosed value on the view's metric (rounded, protocol section 12)"),
  status: z
    .enum(["first", "sota", "not-significant", "not-higher", "reported", "untested"])
    .describe("first: opens the timeline; sota: significantly better than the previous state of the art; not-significant: higher but not significantly better"),
  best: z.number().nullable().describe("the best tested value on or before this point (the line)"),
  sota_id: z.string().nullable().describe("the state of the art after this point"),
  test: z
    .object({
      against_id: z.string(),
      against: z.string(),
      verdict: z.enum(["better", "worse", "no significant difference"]),
      p_bucket: z.enum(P_VALUE_BUCKETS),
      difference: z.number().describe("this entry's shown value minus the state of the art's"),
    })
    .nullable()
    .describe("the view's section 13 reading of this entry against the previous state of the art: the leaderboard's verdict for that pair"),
  url: z.string().nullable(),
});

export const progressSchema = component(
  "LeaderboardProgress",
  z.object({
    release: z.object({ name: z.string(), version: z.string() }),
    split: z.literal("test"),
    track: z.enum(["open", "closed", "unified"]),
    type: z.string().nullable(),
    metric: z.string(),
    sota_rule: z.string(),
    significance_level: z.number(),
    unavailable: z.string().nullable().describe("why there is no timeline (a type too small to show); null when there is one"),
    points: z.array(pointSchema),
    undated_reported: z.array(z.object({ id: z.string(), system: z.string(), value: z.number() })).describe("reported results (papers, on the whole test split) with no paper date: listed, not drawn"),
  }),
);
