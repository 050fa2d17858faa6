import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publicationRequest } from "@/testing/publication-request";
import { POST, GET as listSubmissions } from "@/app/api/submissions/route";
import { GET as getSubmission } from "@/app/api/submissions/[id]/route";
import { GET as getSamples } from "@/app/api/submissions/[id]/samples/route";
import { POST as requestPublication } from "@/app/api/submissions/[id]/publication/route";
import { GET as getEntry } from "@/app/api/entries/[id]/route";
import { GET as getLeaderboard } from "@/app/api/leaderboard/route";
import { GET as getSampleSplit } from "@/app/api/dataset/sample-split/route";
import { DELETE as revokeToken } from "@/app/api/tokens/[id]/route";
import { formatDateTime } from "@/lib/core/format/dates";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { errorResponse } from "@/lib/web/http/error-response";
import { getSharedRedis } from "@/lib/platform/redis";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Idempotency-Key on uploads (a retried upload returns the first submission,
 * charged once), the per-participant dev upload limits (429 with the moment
 * they free) and NUL bytes in ids, query parameters, form fields and JSON
 * bodies (always a 4xx, never the database's 500).
 */
let release: TestRelease;
const BASE = "http://127.0.0.1:3100";

type Body = { id?: string; error?: { code: string; message: string } };

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function participantWithToken(label: string): Promise<{ user: TestUser; token: string }> {
  const user = await createTestUser({ label, withoutPassword: true });
  const { token } = await createApiToken({ actor: sessionActor(user), name: label });
  return { user, token };
}

function uploadRequest(token: string, content: string, options: { key?: string; fields?: Record<string, string> } = {}): Request {
  const form = new FormData();
  for (const [name, value] of Object.entries(options.fields ?? {})) form.append(name, value);
  form.append("file", new Blob([content], { type: "application/x-ndjson" }), "predictions.jsonl");
  const headers: Record<string, string> = { authorization: `Bearer ${token}` };
  if (options.key !== undefined) headers["idempotency-key"] = options.key;
  return new Request(`${BASE}/api/submissions`, { method: "POST", headers, body: form });
}

async function upload(token: string, content: string, options: { key?: string; fields?: Record<string, string> } = {}) {
  const response = await POST(uploadRequest(token, content, options));
  return { status: response.status, headers: response.headers, body: (await response.json()) as Body };
}

function params(id: string): { params: Promise<{ id: string }> } {
  return { params: Promise.resolve({ id }) };
}

describe("Idempotency-Key", () => {
  it("a retried test upload with the same key gets 200 and the same submission, charged once", async () => {
    const { user, token } = await participantWithToken("idem-retry");
    const text = toJsonl(predictionLines(release, "test", "open", 0.5, 401));
    const first = await upload(token, text, { key: "retry-7f3c9a" });
    expect(first.status).toBe(201);
    const retried = await upload(token, text, { key: "retry-7f3c9a" });
    expect(retried.status).toBe(200);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body.id).toBe(first.body.id);
    expect(await db.submission.count({ where: { userId: user.id } })).toBe(1);
    expect((await getTestQuota(user.id, release.releaseId)).usedTotal).toBe(1);
  });

  it("two uploads with one key at the same moment make one submission", async () => {
    const { user, token } = await participantWithToken("idem-race");
    const text = toJsonl(predictionLines(release, "test", "closed", 0.5, 402));
    const [a, b] = await Promise.all([upload(token, text, { key: "race-1" }), upload(token, text, { key: "race-1" })]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.id).toBe(b.body.id);
    expect((await getTestQuota(user.id, release.releaseId)).usedTotal).toBe(1);
  });

  it("the same key with a different file is refused with 422, costs nothing and says why", async () => {
    const { user, token } = await participantWithToken("idem-other");
    const first = await upload(token, toJsonl(predictionLines(release, "test", "open", 0.5, 403)), { key: "one-upload" });
    expect(first.status).toBe(201);
    const other = await upload(token, toJsonl(predictionLines(release, "test", "open", 0.2, 404)), { key: "one-upload" });
    expect(other.status).toBe(422);
    expect(other.body.error?.message).toContain(`was already used for submission ${first.body.id ?? ""} (a different file)`);
    expect(other.body.error?.message).toMatch(/send a new key for a new file/);
    expect((await getTestQuota(user.id, release.releaseId)).usedTotal).toBe(1);
  });

  it("keys belong to one account, and a malformed key is a 422 naming the header", async () => {
    const alice = await participantWithToken("idem-alice");
    const bob = await participantWithToken("idem-bob");
    const text = toJsonl(predictionLines(release, "dev", "open", 0.5, 405));
    const a = await upload(alice.token, text, { key: "shared-key" });
    const b = await upload(bob.token, text, { key: "shared-key" });
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(a.body.id).not.toBe(b.body.id);
    const bad = await upload(alice.token, text, { key: "has space" });
    expect(bad.status).toBe(422);
    expect(bad.body.error?.message).toMatch(/^The Idempotency-Key header must be visible ASCII/);
  });
});

describe("dev upload limits", () => {
  async function seedDevRows(userId: string, count: number, fileBytes: number, createdAt: Date): Promise<void> {
    await db.submission.createMany({
      data: Array.from({ length: count }, (_, index) => ({
        userId,
        releaseId: release.releaseId,
        split: "dev" as const,
        track: "open" as const,
        status: "SCORED" as const,
        fileSha256: `${String(index).padStart(2, "0")}`.padEnd(64, "a"),
        fileBytes,
        originalName: "seeded.jsonl",
        sampleCount: 1,
        createdAt,
      })),
    });
  }

  it("past DEV_UPLOADS_PER_HOUR a dev upload gets 429 with when the next one is possible", async () => {
    const { user, token } = await participantWithToken("dev-rate");
    const limit = getEnv().DEV_UPLOADS_PER_HOUR;
    const oldest = new Date(Date.now() - 50 * 60 * 1000);
    await seedDevRows(user.id, limit, 100, oldest);
    const refused = await upload(token, toJsonl(predictionLines(release, "dev", "open", 0.5, 406)));
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get("retry-after"));
    // The oldest of the hour leaves the window 10 minutes from now.
    expect(retryAfter).toBeGreaterThan(8 * 60);
    expect(retryAfter).toBeLessThanOrEqual(10 * 60);
    expect(refused.body.error?.message).toContain(`the limit is ${limit} per hour. The next one is possible at ${formatDateTime(new Date(oldest.getTime() + 60 * 60 * 1000))}`);
    expect(await db.submission.count({ where: { userId: user.id } })).toBe(limit);
  });

  it("past DEV_UPLOAD_BYTES_PER_DAY a dev upload gets 429 with when enough frees", async () => {
    const { user, token } = await participantWithToken("dev-bytes");
    const limit = getEnv().DEV_UPLOAD_BYTES_PER_DAY;
    const twentyHoursAgo = new Date(Date.now() - 20 * 60 * 60 * 1000);
    await seedDevRows(user.id, 1, limit, twentyHoursAgo);
    const refused = await upload(token, toJsonl(predictionLines(release, "dev", "open", 0.5, 407)));
    expect(refused.status).toBe(429);
    expect(refused.body.error?.message).toContain(`It fits at ${formatDateTime(new Date(twentyHoursAgo.getTime() + 24 * 60 * 60 * 1000))}`);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(3 * 60 * 60);
  });

  it("test uploads are limited by the quota, not by the dev limits", async () => {
    const { user, token } = await participantWithToken("dev-vs-test");
    await seedDevRows(user.id, getEnv().DEV_UPLOADS_PER_HOUR, 100, new Date());
    const accepted = await upload(token, toJsonl(predictionLines(release, "test", "open", 0.5, 408)));
    expect(accepted.status).toBe(201);
  });
});

describe("NUL and other invalid input", () => {
  it("a NUL in a route id is a 422 naming the parameter, on every route that takes one", async () => {
    const { token } = await participantWithToken("nul-ids");
    const auth = { authorization: `Bearer ${token}` };
    const id = "cm0abc\u0000def";
    const responses = await Promise.all([
      getSubmission(new Request(`${BASE}/api/submissions/x`, { headers: auth }), params(id)),
      getSamples(new Request(`${BASE}/api/submissions/x/samples`, { headers: auth }), params(id)),
      requestPublication(
        new Request(`${BASE}/api/submissions/x/publication`, { method: "POST", headers: { ...auth, "content-type": "application/json" }, body: "{}" }),
        params(id),
      ),
      getEntry(new Request(`${BASE}/api/entries/x`), params(id)),
      revokeToken(new Request(`${BASE}/api/tokens/x`, { method: "DELETE", headers: auth }), params(id)),
    ]);
    for (const response of responses) {
      expect(response.status).toBe(422);
      const body = (await response.json()) as Body;
      expect(body.error?.message).toMatch(/"id" contains a NUL character/);
    }
  });

  it("a NUL in a query parameter is a 422 naming the parameter", async () => {
    const split = await getSampleSplit(new Request(`${BASE}/api/dataset/sample-split?id=irc%00x`));
    expect(split.status).toBe(422);
    expect(((await split.json()) as Body).error?.message).toMatch(/"id".*NUL character/);
    const board = await getLeaderboard(new Request(`${BASE}/api/leaderboard?track=open%00`));
    expect(board.status).toBe(422);
  });

  it("a NUL in an upload's form field or in a JSON body field is a 422", async () => {
    const { user, token } = await participantWithToken("nul-fields");
    const field = await upload(token, toJsonl(predictionLines(release, "dev", "open", 0.5, 409)), { fields: { split: "dev\u0000" } });
    expect(field.status).toBe(422);
    const accepted = await upload(token, toJsonl(predictionLines(release, "test", "open", 0.5, 410)));
    expect(accepted.status).toBe(201);
    // Publication is asked for scored test submissions; no worker runs here.
    await db.submission.update({ where: { id: accepted.body.id ?? "" }, data: { status: "SCORED" } });
    const publication = await requestPublication(
      new Request(`${BASE}/api/submissions/x/publication`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ methodDescription: "A method description that is long enough.", factSheet: { ...publicationRequest("My system").factSheet, systemName: "My\u0000system" } }),
      }),
      params(accepted.body.id ?? ""),
    );
    expect(publication.status).toBe(422);
    const body = (await publication.json()) as { error: { problems: { message: string }[] } };
    expect(body.error.problems.map((problem) => problem.message)).toEqual([expect.stringMatching(/"factSheet.systemName" contains a NUL character/)]);
    expect(await db.submission.count({ where: { userId: user.id, publication: "PENDING" } })).toBe(0);
  });

  it("a NUL that still reaches PostgreSQL is answered 400, not 500", async () => {
    const refused: unknown = await db.submission.findFirst({ where: { originalName: "a\u0000b" } }).catch((error: unknown) => error);
    const response = errorResponse(refused);
    expect(response.status).toBe(400);
    expect(((await response.json()) as Body).error?.message).toMatch(/NUL character/);
  });

  it("the caller's list still works after all of that", async () => {
    const { token } = await participantWithToken("nul-list");
    const response = await listSubmissions(new Request(`${BASE}/api/submissions`, { headers: { authorization: `Bearer ${token}` } }));
    expect(response.status).toBe(200);
  });
});
