import { CLIENT_COMMAND } from "../command-name";
import { submissionViewSchema, type SubmissionViewBody } from "@/lib/core/api-schemas/submissions";
import { ApiRefusal, explainRefusal } from "@/lib/client/api-client";
import { ClientError } from "@/lib/client/client-error";
import { formatSubmission, isWaitingStatus } from "@/lib/client/format";
import { writeJson, type CommandContext } from "./context";
import { readWorkerState } from "./workers";

export async function fetchSubmission(context: CommandContext, id: string): Promise<SubmissionViewBody> {
  try {
    return await context.api.json(`/api/submissions/${encodeURIComponent(id)}`, submissionViewSchema);
  } catch (error) {
    if (error instanceof ApiRefusal && error.status === 404) {
      throw new ClientError(2, [`No submission ${id} of yours on ${context.api.baseUrl}. List yours with: ${CLIENT_COMMAND} list`]);
    }
    throw error instanceof ApiRefusal ? explainRefusal(error, context.api.baseUrl, context.now()) : error;
  }
}

/** `status ID`: the submission's state (its place in the queue, a missing worker, a pending publication), and its scores once scored. Exit 0 whatever the state: it was reported. */
export async function runStatus(context: CommandContext, id: string): Promise<0> {
  const view = await fetchSubmission(context, id);
  if (context.isJson) {
    writeJson(context, view);
    return 0;
  }
  const workers = isWaitingStatus(view.status) ? await readWorkerState(context) : { workersAlive: null };
  context.stdout.write(formatSubmission(view, workers));
  return 0;
}
