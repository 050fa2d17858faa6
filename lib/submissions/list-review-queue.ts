import "server-only";
import { requireMaintainer, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { readProbeFlags, type ProbeFlags } from "@/lib/integrity/probe-flags-schema";
import { isScoreStale, releaseGoldOf } from "@/lib/scores/score-staleness";

export type ReviewQueueRow = {
  id: string;
  systemName: string | null;
  ownerName: string;
  split: string;
  track: string;
  status: string;
  publication: string;
  isBaseline: boolean;
  primary: number | null;
  isStale: boolean;
  /** Test files only: signs of a file built to read the gold (docs/integrity.md); maintainers only. Key as in the JSON API. */
  probe_flags: ProbeFlags | null;
  requestedAt: string | null;
  createdAt: string;
};

/** Pending publication requests first, then the most recent submissions of everyone. */
export async function listReviewQueue(actor: Actor): Promise<{ pending: ReviewQueueRow[]; recent: ReviewQueueRow[] }> {
  requireMaintainer(actor);
  const include = { user: { select: { displayName: true } }, score: { select: { primary: true, scorerVersion: true, goldSha256: true, probeFlags: true } }, release: { select: { goldSha256: true } } };
  const [pending, recent] = await Promise.all([
    db.submission.findMany({ where: { publication: "PENDING" }, orderBy: { requestedAt: "asc" }, include }),
    db.submission.findMany({ orderBy: { createdAt: "desc" }, take: 100, include }),
  ]);
  const toRow = (row: (typeof recent)[number]): ReviewQueueRow => ({
    id: row.id,
    systemName: row.systemName ?? row.baselineLabel,
    ownerName: row.user.displayName,
    split: row.split,
    track: row.track,
    status: row.status,
    publication: row.publication,
    isBaseline: row.isBaseline,
    primary: row.score?.primary ?? null,
    isStale: row.score !== null && isScoreStale(row.score, releaseGoldOf(row.release.goldSha256, row.split)),
    probe_flags: readProbeFlags(row.score?.probeFlags),
    requestedAt: row.requestedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  });
  return { pending: pending.map(toRow), recent: recent.map(toRow) };
}

export type AuditRow = { id: string; actorName: string; action: string; targetType: string; targetId: string; reason: string | null; createdAt: string };

export async function listAuditLog(actor: Actor, take = 200): Promise<AuditRow[]> {
  requireMaintainer(actor);
  const rows = await db.auditLog.findMany({ orderBy: { createdAt: "desc" }, take, include: { actor: { select: { displayName: true } } } });
  return rows.map((row) => ({
    id: row.id,
    actorName: row.actor?.displayName ?? "command line",
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  }));
}
