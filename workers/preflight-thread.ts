/**
 * A pre-flight worker thread (lib/domain/uploads/preflight-pool.ts starts them):
 * validates one staged prediction file at a time off the web server's event
 * loop. Each message names the split's reference data by key; it is sent once
 * per thread and kept for the next files of that split.
 */
import { parentPort } from "node:worker_threads";
import type { PreflightTask } from "@/lib/domain/uploads/check-prediction-file";
import { handlePreflightTask } from "@/lib/domain/uploads/preflight-thread-task";

parentPort?.on("message", (task: PreflightTask) => {
  void handlePreflightTask(task).then((reply) => {
    const transfer = "result" in reply && reply.result.ok ? [reply.result.answerDigests.buffer] : [];
    parentPort?.postMessage(reply, transfer);
  });
});
