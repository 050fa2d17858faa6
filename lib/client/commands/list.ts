import { submissionListSchema } from "@/lib/api/schemas/submissions";
import { ApiRefusal, explainRefusal } from "../api-client";
import { formatSubmissionList } from "../format";
import { writeJson, type CommandContext } from "./context";

/** `list`: your submissions, newest first. */
export async function runList(context: CommandContext): Promise<0> {
  const body = await context.api.json("/api/submissions", submissionListSchema).catch((error: unknown) => {
    throw error instanceof ApiRefusal ? explainRefusal(error, context.api.baseUrl, context.now()) : error;
  });
  if (context.isJson) writeJson(context, body);
  else context.stdout.write(formatSubmissionList(body.submissions));
  return 0;
}
