import { describe, expect, it } from "vitest";
import { envSchema } from "@/lib/platform/env";
import { workerTiming } from "./worker-timing";

describe("worker timing", () => {
  it("takes a killed worker's job over within 30 s with the default lock (20 s)", () => {
    const { WORKER_LOCK_MS } = envSchema.parse({ DATABASE_URL: "postgresql://x@localhost/db", REDIS_URL: "redis://localhost" });
    expect(WORKER_LOCK_MS).toBe(20_000);
    expect(workerTiming(WORKER_LOCK_MS)).toEqual({ lockDuration: 20_000, stalledInterval: 10_000, worstCaseTakeoverMs: 30_000 });
  });

  it("checks for stalled jobs at least a second apart however short the lock", () => {
    expect(workerTiming(1_500)).toEqual({ lockDuration: 1_500, stalledInterval: 1_000, worstCaseTakeoverMs: 2_500 });
  });
});
