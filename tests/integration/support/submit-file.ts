/**
 * A producer in a process of its own: stages FILE, creates a submission for
 * USER_ID with createSubmission (pre-flight, store, queue), prints one line
 * `RESULT {"id","status"}` (or `RESULT {"error","retryAfterSeconds"}` when it
 * was refused) and exits. The tests run it to see what a fresh web process
 * does when its very first enqueue meets a Redis that is down.
 *
 *   npx tsx --conditions=react-server tests/integration/support/submit-file.ts USER_ID FILE
 */
import { createReadStream } from "node:fs";
import path from "node:path";
import { getEnv } from "@/lib/platform/env";
import { isAppError } from "@/lib/core/errors";
import { createSubmission } from "@/lib/domain/uploads/create-submission";
import { stageUpload } from "@/lib/platform/files/staging";
import { assertTestDatabase } from "@/testing/local-database";

async function main(): Promise<number> {
  const [userId, file] = process.argv.slice(2);
  if (!userId || !file) {
    console.error("usage: submit-file.ts USER_ID FILE");
    return 2;
  }
  assertTestDatabase();
  const staged = await stageUpload(createReadStream(file), getEnv().UPLOAD_MAX_BYTES);
  try {
    const submission = await createSubmission({ userId, staged, originalName: path.basename(file) });
    console.log(`RESULT ${JSON.stringify({ id: submission.id, status: submission.status })}`);
  } catch (error) {
    if (!isAppError(error)) throw error;
    console.log(`RESULT ${JSON.stringify({ error: error.code, retryAfterSeconds: error.retryAfterSeconds })}`);
  }
  return 0;
}

// process.exit: a Redis connection that keeps reconnecting would hold the process open.
main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof Error ? (error.stack ?? error.message) : String(error));
    process.exit(1);
  },
);
