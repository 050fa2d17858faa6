import { healthReportSchema } from "@/lib/core/api-schemas/dataset";
import type { WorkerState } from "@/lib/client/format";
import type { CommandContext } from "./context";

/**
 * How many scoring workers the server has heard from lately (GET /api/health,
 * public; it answers 503 with the same report when something is degraded, a
 * missing worker included). Only a hint beside a waiting submission: when the
 * server cannot say, or the request fails, nothing is claimed.
 */
export async function readWorkerState(context: CommandContext): Promise<WorkerState> {
  try {
    const report = await context.api.json("/api/health", healthReportSchema, { answerStatuses: [503] });
    return { workersAlive: report.workers.alive ?? null };
  } catch {
    return { workersAlive: null };
  }
}
