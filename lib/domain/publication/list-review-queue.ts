import "server-only";
import { requireMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { db } from "@/lib/platform/db";
import { readProbeFlags, type ProbeFlags } from "@/lib/core/integrity/probe-flags-schema";
import { isScoreStale, releaseGoldOf } from "@/lib/core/scoring/score-staleness";

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

/** What an audit entry acted on, named for people: a system and its owner, a person, a token; the raw id stays for links. */
type AuditTarget = { type: string; id: string; label: string; href: string | null };

type AuditRow = { id: string; actorName: string; action: string; target: AuditTarget; reason: string | null; createdAt: string };

type SubmissionName = { id: string; systemName: string | null; baselineLabel: string | null; originalName: string; track: string; split: string; user: { displayName: string } };

function submissionLabel(row: SubmissionName): string {
  const system = row.systemName ?? row.baselineLabel ?? row.originalName;
  return `${system} (${row.track}-world ${row.split}, by ${row.user.displayName})`;
}

/** The audit log, newest first, with every target named: one query per kind of target, not one per row. */
export async function listAuditLog(actor: Actor, take = 200): Promise<AuditRow[]> {
  requireMaintainer(actor);
  const rows = await db.auditLog.findMany({ orderBy: { createdAt: "desc" }, take, include: { actor: { select: { displayName: true } } } });
  const idsOf = (type: string) => [...new Set(rows.filter((row) => row.targetType === type).map((row) => row.targetId))];
  const [submissions, users, tokens, releases] = await Promise.all([
    db.submission.findMany({
      where: { id: { in: idsOf("Submission") } },
      select: { id: true, systemName: true, baselineLabel: true, originalName: true, track: true, split: true, user: { select: { displayName: true } } },
    }),
    db.user.findMany({ where: { id: { in: idsOf("User") } }, select: { id: true, displayName: true, email: true } }),
    db.apiToken.findMany({ where: { id: { in: idsOf("ApiToken") } }, select: { id: true, name: true, prefix: true, user: { select: { displayName: true } } } }),
    db.datasetRelease.findMany({ where: { id: { in: idsOf("DatasetRelease") } }, select: { id: true, name: true, version: true } }),
  ]);
  const releaseById = new Map(releases.map((row) => [row.id, row]));
  const submissionById = new Map(submissions.map((row) => [row.id, row]));
  const userById = new Map(users.map((row) => [row.id, row]));
  const tokenById = new Map(tokens.map((row) => [row.id, row]));
  const targetOf = (type: string, id: string): AuditTarget => {
    if (type === "Submission") {
      const submission = submissionById.get(id);
      return { type, id, label: submission ? submissionLabel(submission) : `a deleted submission (${id})`, href: submission ? `/submissions/${id}` : null };
    }
    if (type === "User") {
      const user = userById.get(id);
      return { type, id, label: user ? `${user.displayName} <${user.email}>` : `a deleted account (${id})`, href: user ? "/admin/users" : null };
    }
    if (type === "ApiToken") {
      const token = tokenById.get(id);
      return { type, id, label: token ? `API token "${token.name}" (${token.prefix}…) of ${token.user.displayName}` : `a deleted API token (${id})`, href: null };
    }
    if (type === "DatasetRelease") {
      const release = releaseById.get(id);
      return { type, id, label: release ? `release ${release.name} ${release.version}` : `a deleted release (${id})`, href: release ? `/dataset/releases/${encodeURIComponent(release.version)}` : null };
    }
    return { type, id, label: `${type} ${id}`, href: null };
  };
  return rows.map((row) => ({
    id: row.id,
    actorName: row.actor?.displayName ?? "command line",
    action: row.action,
    target: targetOf(row.targetType, row.targetId),
    reason: row.reason,
    createdAt: row.createdAt.toISOString(),
  }));
}
