import "server-only";
import { db } from "@/lib/platform/db";
import { closeSharedRedis } from "@/lib/platform/redis";
import { closeScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { logger } from "@/lib/platform/logger";

/** Closes what a script or worker opened (BullMQ and ioredis never close connections on their own). */
export async function closeConnections(): Promise<void> {
  await closeScoringQueue();
  await closeSharedRedis();
  await db.$disconnect();
}

/** Runs a command-line entry point: its number is the exit code; a thrown error prints and exits 1. */
export function runMain(main: () => Promise<number | void>): void {
  main()
    .then(async (code) => {
      await closeConnections();
      process.exit(code ?? 0);
    })
    .catch(async (error: unknown) => {
      logger.error({ err: error }, error instanceof Error ? error.message : String(error));
      await closeConnections().catch(() => undefined);
      process.exit(1);
    });
}
