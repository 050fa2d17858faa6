import { checkPredictionFile, type PreflightReply, type PreflightTask } from "@/lib/domain/uploads/check-prediction-file";
import type { KbQids } from "@/lib/core/scoring/validate-predictions";
import { buildAnswerIndex, type AnswerIndex } from "@/lib/core/integrity/answer-digests";

const KEPT_REFERENCES = 4;
const references = new Map<string, { sampleIds: readonly string[]; kbQids: KbQids; answerIndex: AnswerIndex }>();

/**
 * One pre-flight task in a worker thread: the split's reference data arrive
 * with the first task of that split and are kept for the next ones (the last
 * KEPT_REFERENCES splits); the staged file is then checked line by line.
 */
export async function handlePreflightTask(task: PreflightTask): Promise<PreflightReply> {
  if (task.reference) {
    const { sampleIds, kb, trainDevQids } = task.reference;
    references.set(task.referenceKey, { sampleIds, kbQids: kb, answerIndex: buildAnswerIndex(kb, trainDevQids) });
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

