import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/submissions/route";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { PREFLIGHT_THREADS, runningPreflightThreads } from "@/lib/domain/uploads/preflight-pool";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { createTestUser, sessionActor } from "@/testing/test-users";

/**
 * Pre-flight validation runs in worker threads (lib/domain/uploads/preflight-pool.ts),
 * not on the web server's event loop; files queue for the threads and each
 * gets its own verdict. A line over 64 KiB is refused without being parsed.
 */
let release: TestRelease;
let token = "";

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  const participant = await createTestUser({ label: "preflight-threads", withoutPassword: true });
  ({ token } = await createApiToken({ actor: sessionActor(participant), name: "preflight threads" }));
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function upload(content: string): Promise<{ status: number; body: { id?: string; error?: { message: string; problems?: { line?: number; message: string }[] } } }> {
  const form = new FormData();
  form.append("file", new Blob([content]), "predictions.jsonl");
  const response = await POST(new Request("http://127.0.0.1:3100/api/submissions", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
  return { status: response.status, body: (await response.json()) as never };
}

describe("pre-flight in worker threads", () => {
  it("more uploads at once than threads: each is checked in a thread and gets its own verdict", async () => {
    const valid = [0.2, 0.5, 0.8].map((accuracy, index) => toJsonl(predictionLines(release, "dev", "closed", accuracy, 701 + index)));
    const invalidLines = predictionLines(release, "dev", "open", 0.5, 704);
    invalidLines[4] = '{"id": "irc-not-a-sample", "prediction": "x"}';
    const results = await Promise.all([...valid.map(upload), upload(toJsonl(invalidLines))]);
    expect(results.map((result) => result.status)).toEqual([201, 201, 201, 422]);
    expect(results[3]?.body.error?.problems?.[0]).toMatchObject({ line: 5 });
    expect(runningPreflightThreads()).toBeGreaterThanOrEqual(1);
    expect(runningPreflightThreads()).toBeLessThanOrEqual(PREFLIGHT_THREADS);
  });

  it("a line over 64 KiB is a problem of that line, not parsed, and the rest of the file is still checked", async () => {
    const lines = predictionLines(release, "dev", "open", 0.5, 705);
    const huge = JSON.stringify({ id: JSON.parse(lines[1] ?? "{}").id as string, prediction: "p", ignored: "x".repeat(2 * 1024 * 1024) });
    lines[1] = huge;
    const result = await upload(toJsonl(lines));
    expect(result.status).toBe(422);
    expect(result.body.error?.problems).toContainEqual({ line: 2, message: `line is longer than 64 KiB (${Buffer.byteLength(huge)} bytes)` });
  });
});
