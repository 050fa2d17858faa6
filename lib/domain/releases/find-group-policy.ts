import "server-only";
import { db } from "@/lib/platform/db";
import { publicGroupPolicy, type GroupPolicy } from "@/lib/core/disclosure/disclose";

/**
 * A release's public group rule (protocol §12: groups below min_group_n show n only, rates to whole points below
 * coarseBelowN), so pages can show whole-point rates as whole points and state the rule. Null for an unknown id.
 */
export async function findGroupPolicy(releaseId: string): Promise<GroupPolicy | null> {
  const release = await db.datasetRelease.findUnique({ where: { id: releaseId }, select: { minGroupN: true } });
  if (release === null) return null;
  return publicGroupPolicy({ minGroupN: release.minGroupN });
}
