import { testQuotaSchema } from "@/lib/core/api-schemas/submissions";
import { ApiRefusal, explainRefusal } from "@/lib/client/api-client";
import { formatQuota } from "@/lib/client/format";
import { writeJson, type CommandContext } from "./context";

/** `quota`: test submissions left on the active release, and when the next one frees. */
export async function runQuota(context: CommandContext): Promise<0> {
  const quota = await context.api.json("/api/quota", testQuotaSchema).catch((error: unknown) => {
    throw error instanceof ApiRefusal ? explainRefusal(error, context.api.baseUrl, context.now()) : error;
  });
  if (context.isJson) writeJson(context, quota);
  else context.stdout.write(formatQuota(quota, context.now()));
  return 0;
}
