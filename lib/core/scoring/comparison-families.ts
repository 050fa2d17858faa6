import { compareWithFamily, type FamilyComparison } from "./compare";
import type { SampleOutcomes } from "./outcome-codes";
import { PRIMARY_METRIC, type Track } from "./tracks";

/**
 * The Holm families an entry is compared in (protocol section 9): the family
 * is the baselines shown in the same view. A track's view holds that track's
 * baselines, compared on the track's primary metric; the unified view holds
 * every baseline, compared on the unified alias-aware top-1 metric. Within a
 * family, baselines with identical outcome vectors count once, the first by
 * id standing for the rest.
 */

type ComparisonFamily = "track" | "unified";

export type FamilyMember = { id: string; outcomes: SampleOutcomes };

export type FamilyComparisonRow = FamilyComparison & { family: ComparisonFamily };

/** Every comparison row of one entry, both families; the entry itself is never its own baseline. */
export function planComparisonRows(entry: FamilyMember, baselines: readonly FamilyMember[]): FamilyComparisonRow[] {
  const others = baselines.filter((baseline) => baseline.id !== entry.id).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const named = (members: readonly FamilyMember[]) => members.map((member) => ({ name: member.id, outcomes: member.outcomes }));
  const track: Track = entry.outcomes.track;
  const sameTrack = others.filter((baseline) => baseline.outcomes.track === track);
  return [
    ...compareWithFamily(entry.outcomes, named(sameTrack), { metric: PRIMARY_METRIC[track] }).map((row) => ({ ...row, family: "track" as const })),
    ...compareWithFamily(entry.outcomes, named(others), { metric: "unified" }).map((row) => ({ ...row, family: "unified" as const })),
  ];
}
