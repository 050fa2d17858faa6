import "server-only";
import type { Prisma } from "@/lib/platform/generated/prisma";
import { appendPublicLog } from "./append-public-log";
import { takeViewErrata } from "./record-view-errata";

/**
 * The public log's record of a change to one entry's visibility or fact
 * sheet, written in the transaction of the change (after it): an entry
 * published, hidden or shown again, a baseline marked or unmarked, a
 * published entry's fact sheet changed. What the views show after it becomes
 * the log's kept state, so a later re-score's errata name only what the
 * re-score changed (lib/domain/public-log/record-view-errata.ts).
 */

type EntryKind = "entry.published" | "entry.hidden" | "entry.unhidden" | "baseline.marked" | "baseline.unmarked" | "entry.fact-sheet-changed";

const SUMMARY: Record<EntryKind, (name: string) => string> = {
  "entry.published": (name) => `${name} published`,
  "entry.hidden": (name) => `${name} hidden from the leaderboard`,
  "entry.unhidden": (name) => `${name} shown on the leaderboard again`,
  "baseline.marked": (name) => `${name} marked as a baseline`,
  "baseline.unmarked": (name) => `${name} no longer a baseline`,
  "entry.fact-sheet-changed": (name) => `${name}: fact sheet changed`,
};

/** No reason is logged: a maintainer's words may name what only maintainers see (probe flags). */
type EntryChange = { kind: EntryKind; submissionId: string; by: "maintainer" | "owner"; extra?: Record<string, string> };

export async function logEntryChange(tx: Prisma.TransactionClient, change: EntryChange): Promise<void> {
  const submission = await tx.submission.findUniqueOrThrow({
    where: { id: change.submissionId },
    select: {
      id: true,
      split: true,
      track: true,
      isBaseline: true,
      baselineLabel: true,
      systemName: true,
      user: { select: { displayName: true } },
      release: { select: { id: true, name: true, version: true } },
    },
  });
  const system = (submission.isBaseline || change.kind === "baseline.unmarked" ? submission.baselineLabel : null) ?? submission.systemName ?? "Unnamed system";
  const name = `"${system}" (${submission.track}-world, ${submission.split})`;
  // The test views after the change are the state the next re-score is compared with.
  if (submission.split === "test") await takeViewErrata(tx, submission.release.id);
  await appendPublicLog(tx, {
    kind: change.kind,
    release: submission.release,
    entry: submission.id,
    summary: SUMMARY[change.kind](name),
    data: {
      system,
      team: submission.user.displayName,
      track: submission.track,
      split: submission.split,
      by: change.by,
      ...change.extra,
    },
  });
}
