import "server-only";
import { z } from "zod";
import { requireOwnerOrMaintainer, type Actor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { readLines } from "@/lib/io/read-lines";
import { getFileStore } from "@/lib/files/file-store";
import { loadSplitGold } from "@/lib/submissions/load-gold";
import { isAliasHitAt1Code, rankOfCode, tierOfCode } from "@/lib/scoring/outcome-codes";
import { parseRecordId } from "@/lib/validation/text";

export const sampleOutcomeQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(10).max(500).default(100),
  filter: z.enum(["all", "right", "wrong"]).default("all"),
});
export type SampleOutcomeQuery = z.infer<typeof sampleOutcomeQuerySchema>;

export type SampleOutcomeRow = {
  id: string;
  answer: string;
  gold: { qid: string; name: string; type: string };
  /** Open-world: tier 1-4 or null. */
  tier: number | null;
  /** Closed-world: 1-based rank of the gold or null. */
  rank: number | null;
  isAliasHitAt1: boolean;
  isRight: boolean;
};

export type SampleOutcomePage = { rows: SampleOutcomeRow[]; total: number; page: number; pageSize: number };

const SHOWN_RANKING = 5;

/**
 * Per-sample feedback for a DEV submission (the dev gold is public). Test
 * submissions have none, for their owner and everyone else: it would reveal
 * the hidden gold.
 */
export async function getSampleOutcomes(actor: Actor, submissionId: string, query: SampleOutcomeQuery): Promise<SampleOutcomePage> {
  const submission = await db.submission.findUnique({ where: { id: parseRecordId(submissionId, "submission") }, include: { score: { select: { outcomes: true } } } });
  if (!submission) throw new AppError("not_found", "Not found.");
  requireOwnerOrMaintainer(actor, submission.userId);
  if (submission.split !== "dev") {
    throw new AppError("not_found", "Per-sample outcomes exist for dev submissions only: the test split's gold stays hidden.");
  }
  if (submission.status !== "SCORED" || !submission.score) {
    throw new AppError("not_found", "This submission has no scores yet.");
  }
  const { gold } = await loadSplitGold(submission.releaseId, "dev");
  const answers = new Map<string, string>();
  for await (const { line } of readLines(getFileStore().read(submission.fileSha256))) {
    const text = line.replace(/^\uFEFF/, "").trim();
    if (text === "") continue;
    const value = JSON.parse(text) as { id: string; prediction?: string; ranking?: string[] };
    const answer = submission.track === "open" ? value.prediction ?? "" : (value.ranking ?? []).slice(0, SHOWN_RANKING).join(", ");
    answers.set(value.id, answer);
  }
  const codes = submission.score.outcomes;
  const rows: SampleOutcomeRow[] = gold.map((record, index) => {
    const code = codes[index] ?? 0;
    const tier = submission.track === "open" ? tierOfCode(code) : null;
    const rank = submission.track === "closed" ? rankOfCode(code) || null : null;
    const isRight = submission.track === "open" ? tier !== null && tier <= 2 : rank === 1;
    return {
      id: record.id,
      answer: answers.get(record.id) ?? "",
      gold: { qid: record.qid, name: record.name, type: record.type },
      tier,
      rank,
      isAliasHitAt1: submission.track === "closed" && isAliasHitAt1Code(code),
      isRight,
    };
  });
  const filtered = query.filter === "all" ? rows : rows.filter((row) => row.isRight === (query.filter === "right"));
  const start = (query.page - 1) * query.pageSize;
  return { rows: filtered.slice(start, start + query.pageSize), total: filtered.length, page: query.page, pageSize: query.pageSize };
}
