import { TEST_METRICS_TOKEN } from "./support/metrics-token";
import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/metrics/route";
import { db } from "@/lib/platform/db";
import { installHttpMetrics } from "@/lib/platform/metrics/http-metrics";
import { createRouteMatcher } from "@/lib/platform/metrics/route-label";
import { getSharedRedis } from "@/lib/platform/redis";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { killAllChildren } from "./support/processes";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { waitFor, waitForAllSettled } from "./support/wait";
import { startWorker } from "./support/workers";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * GET /metrics: refused without the token, and with it a valid Prometheus
 * text exposition of queue depth, upload sizes, HTTP latency by route, and
 * the job durations and outcomes each live worker pushed into Redis.
 */
let release: TestRelease;
let owner: TestUser;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  owner = await createTestUser({ label: "metrics", withoutPassword: true });
});

afterAll(async () => {
  await killAllChildren();
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

function scrape(authorization?: string): Promise<Response> {
  const headers: Record<string, string> = authorization ? { authorization } : {};
  return GET(new Request("http://127.0.0.1:3100/metrics", { headers }));
}

async function metricsText(): Promise<string> {
  const response = await scrape(`Bearer ${TEST_METRICS_TOKEN}`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one sample line, `name{labels} value`, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Every line is a comment or `name{labels} value`, and no metric is declared twice. */
function expectValidExposition(text: string): void {
  const types = text.split("\n").filter((line) => line.startsWith("# TYPE "));
  expect(new Set(types).size).toBe(types.length);
  for (const line of text.split("\n")) {
    if (line === "" || line.startsWith("# HELP ") || line.startsWith("# TYPE ")) continue;
    expect(line).toMatch(/^[a-zA-Z_:][a-zA-Z0-9_:]*(\{[^}]*\})? (-?[0-9.]+(e[+-]?[0-9]+)?|NaN|[+-]Inf)$/);
  }
}

describe("GET /metrics", () => {
  it("answers 401 with a Bearer challenge without the token or with a wrong one", async () => {
    for (const authorization of [undefined, "Bearer wrong-token-0123456789", `Basic ${TEST_METRICS_TOKEN}`]) {
      const response = await scrape(authorization);
      expect(response.status).toBe(401);
      expect(response.headers.get("www-authenticate")).toMatch(/^Bearer/);
      expect(await response.text()).not.toMatch(/irc_/);
    }
  });

  it("shows queue depth and upload sizes, then each worker's job outcomes and durations", async () => {
    const submissions = [];
    for (const seed of [601, 602]) submissions.push(await submitLines(predictionLines(release, "dev", "open", 0.5, seed), { userId: owner.id }));
    const before = await metricsText();
    expectValidExposition(before);
    expect(sample(before, 'irc_scoring_queue_jobs{state="waiting"}')).toBe(2);
    expect(sample(before, 'irc_scoring_queue_jobs{state="active"}')).toBe(0);
    expect(sample(before, "irc_redis_up")).toBe(1);
    expect(sample(before, "irc_scoring_workers_alive")).toBe(0);
    expect(sample(before, 'irc_upload_bytes_count{split="dev",track="open"}')).toBe(2);
    expect(sample(before, 'irc_upload_bytes_sum{split="dev",track="open"}')).toBe(submissions.reduce((sum, row) => sum + row.fileBytes, 0));
    expect(before).not.toMatch(/irc_scoring_jobs_total/);

    const worker = await startWorker({ WORKER_CONCURRENCY: "1" });
    await waitForAllSettled(
      submissions.map((row) => row.id),
      { timeoutMs: 60_000, workers: [worker] },
    );
    // The worker pushes its figures with each heartbeat (every 5 s).
    const after = await waitFor(
      async () => {
        const text = await metricsText();
        return /irc_scoring_jobs_total\{outcome="scored",worker="[^"]+"\} 2/.test(text) ? text : undefined;
      },
      () => "the worker's job count did not reach /metrics",
      { timeoutMs: 30_000, workers: [worker] },
    );
    expectValidExposition(after);
    expect(sample(after, 'irc_scoring_queue_jobs{state="waiting"}')).toBe(0);
    expect(sample(after, 'irc_scoring_queue_jobs{state="completed"}')).toBe(2);
    expect(sample(after, "irc_scoring_workers_alive")).toBe(1);
    expect(after).toMatch(/^irc_scoring_job_duration_seconds_count\{outcome="scored",worker="[^"]+"\} 2$/m);
    expect(after).toMatch(/^irc_scoring_job_duration_seconds_bucket\{le="\+Inf",outcome="scored",worker="[^"]+"\} 2$/m);
    // The worker's process figures are its own, never merged with the web process's.
    expect(after).toMatch(/^irc_worker_process_resident_memory_bytes\{worker="[^"]+"\} \d+/m);
    expect(after).toMatch(/^irc_web_process_resident_memory_bytes \d+/m);
    // No secret or connection string.
    expect(after).not.toMatch(/postgres(ql)?:\/\/|redis:\/\/|password/i);

    // A worker that stopped is no longer shown.
    await worker.stop();
    const gone = await metricsText();
    expect(gone).not.toMatch(/irc_scoring_jobs_total/);
    expect(sample(gone, "irc_scoring_workers_alive")).toBe(0);
  });

  it("times HTTP requests by route pattern, method and status", async () => {
    installHttpMetrics(createRouteMatcher([], [{ page: "/submissions/[id]", regex: "^/submissions/([^/]+?)(?:/)?$" }]));
    const server = http.createServer((request, response) => {
      response.statusCode = request.url?.startsWith("/submissions/") ? 200 : 404;
      response.end("ok");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no port");
    try {
      for (const path of ["/submissions/abc", "/submissions/def?x=1", "/nowhere"]) await (await fetch(`http://127.0.0.1:${address.port}${path}`)).text();
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
    const text = await metricsText();
    expectValidExposition(text);
    expect(sample(text, 'irc_http_request_duration_seconds_count{method="GET",route="/submissions/[id]",status="200"}')).toBe(2);
    expect(sample(text, 'irc_http_request_duration_seconds_count{method="GET",route="unmatched",status="404"}')).toBe(1);
    expect(text).not.toMatch(/route="\/submissions\/abc"/);
  });
});
