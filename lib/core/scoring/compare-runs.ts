import { ENTITY_TYPES, type EntityType } from "@/lib/core/dataset/release-schema";
import { correctnessVector } from "./compare";
import { mcnemarTest, type McNemarResult } from "./mcnemar";
import type { SampleOutcomes } from "./outcome-codes";
import { PRIMARY_METRIC } from "./tracks";

/**
 * Two runs of one participant on the same split and track, sample by sample,
 * on the track's primary metric (sections 6, 7 and 9). The newer run is the
 * "scored file" of section 9: b = fixed (the old run wrong, the new one
 * right), c = broken (the old run right, the new one wrong).
 */

export type SampleChange = "fixed" | "broken" | "same";

type TypeDifference = {
  type: EntityType;
  n: number;
  oldRate: number | null;
  newRate: number | null;
  fixed: number;
  broken: number;
};

type RunComparison = {
  metric: "alias" | "hit@1";
  n: number;
  oldRate: number;
  newRate: number;
  /** McNemar with b = fixed, c = broken. */
  mcnemar: McNemarResult;
  byType: TypeDifference[];
  /** One change per sample, in gold order. */
  changes: SampleChange[];
};

export function compareRuns(oldRun: SampleOutcomes, newRun: SampleOutcomes, goldTypes: readonly EntityType[]): RunComparison {
  if (oldRun.track !== newRun.track) throw new Error(`cannot compare a ${oldRun.track}-world run with a ${newRun.track}-world run`);
  if (oldRun.codes.length !== goldTypes.length || newRun.codes.length !== goldTypes.length) {
    throw new Error(`the runs cover ${oldRun.codes.length} and ${newRun.codes.length} samples, the gold ${goldTypes.length}`);
  }
  const metric = PRIMARY_METRIC[newRun.track];
  const before = correctnessVector(oldRun, metric);
  const after = correctnessVector(newRun, metric);
  const perType = new Map<EntityType, { n: number; oldRight: number; newRight: number; fixed: number; broken: number }>(
    ENTITY_TYPES.map((type) => [type, { n: 0, oldRight: 0, newRight: 0, fixed: 0, broken: 0 }]),
  );
  const changes: SampleChange[] = [];
  let [oldRight, newRight, fixed, broken] = [0, 0, 0, 0];
  goldTypes.forEach((type, i) => {
    const wasRight = before[i] === 1;
    const isRight = after[i] === 1;
    const group = perType.get(type);
    if (group === undefined) throw new Error(`unknown entity type ${type}`);
    group.n += 1;
    if (wasRight) {
      oldRight += 1;
      group.oldRight += 1;
    }
    if (isRight) {
      newRight += 1;
      group.newRight += 1;
    }
    if (isRight && !wasRight) {
      fixed += 1;
      group.fixed += 1;
      changes.push("fixed");
    } else if (wasRight && !isRight) {
      broken += 1;
      group.broken += 1;
      changes.push("broken");
    } else {
      changes.push("same");
    }
  });
  const n = goldTypes.length;
  return {
    metric,
    n,
    oldRate: n === 0 ? 0 : oldRight / n,
    newRate: n === 0 ? 0 : newRight / n,
    mcnemar: mcnemarTest(fixed, broken),
    byType: ENTITY_TYPES.map((type) => {
      const group = perType.get(type)!;
      return {
        type,
        n: group.n,
        oldRate: group.n === 0 ? null : group.oldRight / group.n,
        newRate: group.n === 0 ? null : group.newRight / group.n,
        fixed: group.fixed,
        broken: group.broken,
      };
    }),
    changes,
  };
}
