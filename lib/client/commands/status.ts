import { submissionViewSchema, type SubmissionViewBody } from "@/lib/api/schemas/submissions";
import { ApiRefusal, explainRefusal } from "../api-client";
import { ClientError } from "../client-error";
import { formatSubmission } from "../format";
import { writeJson, type CommandContext } from "./context";

export async function fetchSubmission(context: CommandContext, id: string): Promise<SubmissionViewBody> {
  try {
    return await context.api.json(`/api/submissions/${encodeURIComponent(id)}`, submissionViewSchema);
  } catch (error) {
    if (error instanceof ApiRefusal && error.status === 404) {
      throw new ClientError(2, [`No submission ${id} of yours on ${context.api.baseUrl}. List yours with: irc-bench-client list`]);
    }
    throw error instanceof ApiRefusal ? explainRefusal(error, context.api.baseUrl, context.now()) : error;
  }
}

export function pageUrlOf(context: CommandContext, id: string): string {
  return context.api.url(`/submissions/${encodeURIComponent(id)}`);
}

/** `status ID`: the submission's state, and its scores once scored. Exit 0 whatever the state: it was reported. */
export async function runStatus(context: CommandContext, id: string): Promise<0> {
  const view = await fetchSubmission(context, id);
  if (context.isJson) writeJson(context, view);
  else context.stdout.write(formatSubmission(view, pageUrlOf(context, id)));
  return 0;
}
