/**
 * The scoring worker: its own process (npm run worker). Takes { submissionId }
 * jobs from BullMQ and scores them with lib/submissions/process-submission.ts.
 * Run as many as you like, on as many machines, against one Redis and one
 * PostgreSQL. SIGTERM/SIGINT finish the current jobs, then exit. Logs are
 * JSON lines (pino) carrying the submission and job ids.
 */
import { runScoringWorker } from "@/lib/jobs/run-scoring-worker";

void runScoringWorker();
