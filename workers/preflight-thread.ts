/**
 * A pre-flight worker thread (lib/submissions/preflight-pool.ts starts them):
 * validates one staged prediction file at a time off the web server's event
 * loop. Each message names the split's reference data by key; it is sent once
 * per thread and kept for the next files of that split.
 */
import { parentPort } from "node:worker_threads";
import { checkPredictionFile, type PreflightReply, type PreflightTask } from "@/lib/submissions/check-prediction-file";
import type { KbQids } from "@/lib/scoring/validate-predictions";
import { buildAnswerIndex, type AnswerIndex } from "@/lib/submissions/answer-digests";

const KEPT_REFERENCES = 4;
const references = new Map<string, { sampleIds: readonly string[]; kbQids: KbQids; answerIndex: AnswerIndex }>();

async function handle(task: PreflightTask): Promise<PreflightReply> {
  if (task.reference) {
    const { sampleIds, kb } = task.reference;
    references.set(task.referenceKey, { sampleIds, kbQids: kb, answerIndex: buildAnswerIndex(kb) });
    while (references.size > KEPT_REFERENCES) references.delete(references.keys().next().value ?? "");
  }
  const reference = references.get(task.referenceKey);
  if (!reference) return { taskId: task.taskId, error: `no reference data for ${task.referenceKey}` };
  try {
    const result = await checkPredictionFile({ path: task.path, sampleIds: reference.sampleIds, kbQids: reference.kbQids, answerIndex: reference.answerIndex, track: task.track, split: task.split });
    return { taskId: task.taskId, result };
  } catch (error) {
    return { taskId: task.taskId, error: error instanceof Error ? error.message : String(error) };
  }
}

parentPort?.on("message", (task: PreflightTask) => {
  void handle(task).then((reply) => {
    const transfer = "result" in reply && reply.result.ok ? [reply.result.answerDigests.buffer] : [];
    parentPort?.postMessage(reply, transfer);
  });
});
