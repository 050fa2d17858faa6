import type { Sample } from "@/lib/core/dataset/release-schema";
import { isAliasHitAt1, prepareClosedGold } from "@/lib/core/scoring/closed-world";
import { norm } from "@/lib/core/scoring/normalize";
import { tierOf } from "@/lib/core/scoring/open-world";
import type { TestRelease } from "./release";

/**
 * The attack tests' answers that no metric counts (integrity-slices, integrity-window-probe): on a full-size
 * release, a test-pool entity that is not the sample's gold, has no alias hit and no open-world tier for it.
 */

export function entityOf(release: TestRelease, qid: string) {
  const found = release.entityByQid.get(qid);
  if (!found) throw new Error(`no entity ${qid}`);
  return found;
}

/** alias_hit@1 of a top-ranked entity for a sample whose gold is `goldQid`. */
export function isAliasHitFor(release: TestRelease, top: string, goldQid: string): boolean {
  const gold = entityOf(release, goldQid);
  return isAliasHitAt1([top], prepareClosedGold(goldQid, gold.name, gold.aliases), (qid) => norm(entityOf(release, qid).name));
}

/** FNV-1a of a sample id: where a sample's answers start in a pool. */
export function sampleHash(text: string): number {
  let h = 2166136261;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h;
}

/**
 * A known-wrong answer for a sample: the `k`-th candidate of generation `generation` in `testPool` (KB
 * entities of no train or dev sample) that no metric would count. A new generation gives a fresh answer,
 * so two files differ there as the scorer reads them.
 */
export function knownWrong(release: TestRelease, testPool: readonly string[], sample: Sample, generation: number, k = 0): string {
  const gold = entityOf(release, sample.qid);
  let at = (sampleHash(sample.id) + generation * 7919 + k * 104729) % testPool.length;
  for (;;) {
    const qid = testPool[at]!;
    if (qid !== sample.qid && !isAliasHitFor(release, qid, sample.qid) && tierOf(entityOf(release, qid).name, gold.name, gold.aliases) === null) return qid;
    at = (at + 1) % testPool.length;
  }
}
