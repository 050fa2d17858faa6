/**
 * tsx --conditions=react-server tests/integration/support/print-public-reads.ts
 *
 * Prints, as one JSON object, what the public API answers from the database of
 * DATABASE_URL (through the app's own route handlers): the leaderboard of each
 * track, the entry list, the public log and its signed head. The backup test
 * runs it against the backed-up and the restored database, each with a Redis
 * database of its own, and compares the bytes.
 */
import { GET as getLeaderboard } from "@/app/api/leaderboard/route";
import { GET as getEntries } from "@/app/api/entries/route";
import { GET as getPublicLog } from "@/app/api/public-log/route";
import { GET as getPublicLogHead } from "@/app/api/public-log/head/route";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";

async function text(handler: (request: Request) => Promise<Response>, target: string): Promise<string> {
  const response = await handler(new Request(`http://localhost${target}`, { headers: { "accept-encoding": "identity" } }));
  return `${response.status} ${await response.text()}`;
}

async function main(): Promise<void> {
  const reads: Record<string, string> = {};
  for (const track of ["open", "closed", "unified"]) reads[`leaderboard-${track}`] = await text(getLeaderboard, `/api/leaderboard?track=${track}&scope=all`);
  reads.entries = await text(getEntries, "/api/entries");
  reads.log = await text(getPublicLog, "/api/public-log");
  reads.head = await text(getPublicLogHead, "/api/public-log/head");
  process.stdout.write(JSON.stringify(reads));
  await db.$disconnect();
  await getSharedRedis().quit();
}

void main();
