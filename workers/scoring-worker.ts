/**
 * The scoring worker: its own process (npm run worker). Takes { submissionId }
 * jobs from BullMQ and scores them with lib/domain/scoring/process-submission.ts.
 * Run as many as you like, on as many machines, against one Redis and one
 * PostgreSQL. SIGTERM/SIGINT finish the current jobs, then exit. Logs are
 * JSON lines (pino) carrying the submission and job ids.
 */
import { runScoringWorker } from "@/lib/domain/scoring/run-scoring-worker";
import { parseCommandLine } from "../scripts/command-line";

parseCommandLine({
  name: "npm run worker",
  usage: "Usage: npm run worker\nScores queued submissions until SIGTERM or SIGINT; WORKER_CONCURRENCY jobs at a time. Run as many as you like against one Redis and one PostgreSQL.",
  options: {},
});
void runScoringWorker();
