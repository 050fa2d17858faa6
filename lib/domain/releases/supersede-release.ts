import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { Prisma } from "@/lib/platform/generated/prisma";
import type { SupersedeReleaseInput } from "@/lib/core/accounts/release-form-schemas";
import { recordAudit } from "@/lib/platform/audit/record-audit";
import { appendPublicLog } from "@/lib/domain/public-log/append-public-log";

type SupersedeReleaseOptions = { actor: Actor; version: string; change: SupersedeReleaseInput };

type SupersedeResult = { version: string; supersededBy: string | null; isChanged: boolean };

/**
 * Marks a release superseded by another one (or takes the mark back), in the
 * audit log. The release's leaderboard stays readable (/leaderboard?release=VERSION)
 * under a "superseded by" banner. The active release cannot be superseded:
 * activate its successor first (npm run dataset:import -- DIR activates it).
 */
export async function supersedeRelease(options: SupersedeReleaseOptions): Promise<SupersedeResult> {
  const actorId = requireMaintainer(options.actor).userId;
  const { change } = options;
  return db.$transaction(async (tx) => {
    const release = await tx.datasetRelease.findFirst({
      where: { version: options.version },
      orderBy: { importedAt: "desc" },
      select: { id: true, name: true, version: true, isActive: true, supersededById: true, supersededBy: { select: { version: true } } },
    });
    if (release === null) throw new AppError("not_found", `No release has the version "${options.version.slice(0, 64)}".`);

    if (change.action === "restore") {
      if (release.supersededById === null) return { version: release.version, supersededBy: null, isChanged: false };
      await tx.datasetRelease.update({ where: { id: release.id }, data: { supersededAt: null, supersededById: null } });
      await recordAudit(tx, { actorId, action: "release.superseded_removed", targetType: "DatasetRelease", targetId: release.id, reason: change.reason || null, details: { version: release.version, was: release.supersededBy?.version ?? null } });
      await appendPublicLog(tx, {
        kind: "release.unsuperseded",
        release,
        summary: `Release ${release.name} ${release.version} is no longer marked superseded (it was by ${release.supersededBy?.version ?? "another release"})`,
        data: { was_superseded_by: release.supersededBy?.version ?? "" },
      });
      return { version: release.version, supersededBy: null, isChanged: true };
    }

    if (release.isActive) {
      throw new AppError("conflict", `Release ${release.version} is the active release; activate its successor first, then mark ${release.version} superseded.`);
    }
    const successor = await tx.datasetRelease.findFirst({ where: { version: change.supersededBy }, orderBy: { importedAt: "desc" }, select: { id: true, version: true } });
    if (successor === null) throw new AppError("validation", `supersededBy: no release has the version "${change.supersededBy.slice(0, 64)}".`);
    if (successor.id === release.id) throw new AppError("validation", "supersededBy: a release cannot supersede itself; choose another version.");
    if (release.supersededById === successor.id) return { version: release.version, supersededBy: successor.version, isChanged: false };
    // Following the successor's own "superseded by" marks must never lead back here: no release supersedes itself through others.
    const chain = [successor.version];
    for (let next = await supersededByOf(tx, successor.id); next !== null; next = await supersededByOf(tx, next.id)) {
      chain.push(next.version);
      if (next.id === release.id) {
        throw new AppError("validation", `supersededBy: ${successor.version} is itself superseded, through ${chain.join(" -> ")}, by ${release.version}; that would be a cycle. Take that mark back first.`);
      }
      if (chain.length > 1000) break;
    }

    await tx.datasetRelease.update({ where: { id: release.id }, data: { supersededAt: new Date(), supersededById: successor.id } });
    await recordAudit(tx, {
        actorId,
        action: "release.superseded",
        targetType: "DatasetRelease",
        targetId: release.id,
        reason: change.reason,
        details: { version: release.version, supersededBy: successor.version, was: release.supersededBy?.version ?? null },
      });
    await appendPublicLog(tx, {
      kind: "release.superseded",
      release,
      summary: `Release ${release.name} ${release.version} marked superseded by ${successor.version}`,
      data: { superseded_by: successor.version },
    });
    return { version: release.version, supersededBy: successor.version, isChanged: true };
  });
}

async function supersededByOf(tx: Prisma.TransactionClient, releaseId: string): Promise<{ id: string; version: string } | null> {
  const row = await tx.datasetRelease.findUnique({ where: { id: releaseId }, select: { supersededBy: { select: { id: true, version: true } } } });
  return row?.supersededBy ?? null;
}
