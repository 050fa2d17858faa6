import { submissionListSchema } from "@/lib/core/api-schemas/submissions";
import { ApiRefusal, explainRefusal } from "@/lib/client/api-client";
import { formatSubmissionList, isWaitingStatus, type QueuePosition } from "@/lib/client/format";
import { writeJson, type CommandContext } from "./context";
import { fetchSubmission } from "./status";
import { readWorkerState } from "./workers";

/** QUEUED rows whose place in the queue is asked for, one request each (a participant rarely has more waiting). */
const MAX_POSITIONS = 20;

/** `list`: your submissions, newest first, each QUEUED one with its place in the queue. */
export async function runList(context: CommandContext): Promise<0> {
  const body = await context.api.json("/api/submissions", submissionListSchema).catch((error: unknown) => {
    throw error instanceof ApiRefusal ? explainRefusal(error, context.api.baseUrl, context.now()) : error;
  });
  if (context.isJson) {
    writeJson(context, body);
    return 0;
  }
  const queued = body.submissions.filter((row) => row.status === "QUEUED").slice(0, MAX_POSITIONS);
  const positions = new Map<string, QueuePosition>();
  for (const row of queued) {
    const view = await fetchSubmission(context, row.id);
    if (view.status === "QUEUED" && view.queuePosition !== null) positions.set(row.id, view.queuePosition);
  }
  const workers = body.submissions.some((row) => isWaitingStatus(row.status)) ? await readWorkerState(context) : { workersAlive: null };
  context.stdout.write(formatSubmissionList(body.submissions, positions, workers));
  return 0;
}
