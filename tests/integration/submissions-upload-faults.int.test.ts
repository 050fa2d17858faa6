import { createHash } from "node:crypto";
import { readdirSync, readlinkSync } from "node:fs";
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/submissions/route";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { stagingDir } from "@/lib/platform/files/staging";
import { getSharedRedis } from "@/lib/platform/redis";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Every upload through POST /api/submissions ends in a clear status, whatever
 * the client or the file store does, and leaves no descriptor, .part file,
 * row or quota charge behind when it fails. Bodies are web streams this test
 * controls, so a client abort, a body that never ends and a body that stalls
 * are reproduced exactly.
 */
let release: TestRelease;
let participant: TestUser;
let token = "";
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);
const BOUNDARY = "----irc-upload-faults";
const encoder = new TextEncoder();

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser({ label: "upload-faults", withoutPassword: true });
  ({ token } = await createApiToken({ actor: sessionActor(participant), name: "upload faults" }));
  // A run killed mid-test may have left the file that stands in for the staging folder, or a trigger.
  await rm(stagingDir(), { recursive: true, force: true });
  await failChunkWrites(false);
  await failCommits(false);
  process.on("uncaughtException", onUncaught);
});

afterEach(() => {
  expect(uncaught.splice(0)).toEqual([]);
});

afterAll(async () => {
  process.off("uncaughtException", onUncaught);
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function partFiles(): Promise<string[]> {
  const names = await readdir(stagingDir()).catch(() => []);
  return names.filter((name) => name.endsWith(".part"));
}

/** Descriptors of this process open on a staged (.part) file. */
function openPartDescriptors(): string[] {
  return readdirSync("/proc/self/fd").flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.endsWith(".part") ? [target] : [];
    } catch {
      return [];
    }
  });
}

function fileHead(): Uint8Array {
  return encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="predictions.jsonl"\r\nContent-Type: application/x-ndjson\r\n\r\n`);
}

function uploadRequest(body: ReadableStream<Uint8Array>): Request {
  return new Request("http://127.0.0.1:3100/api/submissions", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": `multipart/form-data; boundary=${BOUNDARY}` },
    body,
    duplex: "half",
  } as RequestInit);
}

type Sent = { bytes: number };

/** The file part's head, then `content` in 16 KiB chunks until `abortAfter` bytes, then the connection drops. */
function abortingBody(content: Uint8Array, abortAfter: number, sent: Sent): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(fileHead());
    },
    pull(controller) {
      if (offset >= abortAfter) {
        controller.error(new Error("aborted"));
        return;
      }
      const chunk = content.subarray(offset, Math.min(offset + 16 * 1024, abortAfter));
      offset += chunk.length;
      sent.bytes = offset;
      controller.enqueue(chunk);
    },
  });
}

/** The file part's head, then `content`, then nothing more: the client never finishes. */
function stallingBody(content: Uint8Array, sent: Sent): ReadableStream<Uint8Array> {
  let isSent = false;
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(fileHead());
    },
    pull(controller) {
      if (isSent) return new Promise<void>(() => undefined);
      isSent = true;
      sent.bytes = content.length;
      controller.enqueue(content);
      return undefined;
    },
  });
}

/** A chunked body (no Content-Length) that never ends: 256 KiB of one JSON line after another. */
function endlessBody(sent: Sent): ReadableStream<Uint8Array> {
  const chunk = encoder.encode(`${"x".repeat(256 * 1024 - 1)}\n`);
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(fileHead());
    },
    pull(controller) {
      sent.bytes += chunk.length;
      controller.enqueue(chunk);
    },
  });
}

async function uploadForm(content: string): Promise<{ status: number; body: { id?: string; error?: { code: string; message: string } } }> {
  const form = new FormData();
  form.append("file", new Blob([content], { type: "application/x-ndjson" }), "predictions.jsonl");
  const request = new Request("http://127.0.0.1:3100/api/submissions", { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form });
  const response = await POST(request);
  return { status: response.status, body: (await response.json()) as { id?: string; error?: { code: string; message: string } } };
}

async function submissionCount(): Promise<number> {
  return db.submission.count({ where: { userId: participant.id } });
}

describe("uploads that always end", () => {
  it("a client abort mid-upload gets a 400, leaves no .part file or descriptor, and the server keeps serving", async () => {
    const content = encoder.encode(toJsonl(predictionLines(release, "dev", "open", 0.5, 301)));
    const sent: Sent = { bytes: 0 };
    const response = await POST(uploadRequest(abortingBody(content, Math.floor(content.length / 2), sent)));
    expect(sent.bytes).toBeGreaterThan(0);
    expect(response.status).toBe(400);
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/interrupted/);
    expect(await partFiles()).toEqual([]);
    expect(openPartDescriptors()).toEqual([]);
    expect(await submissionCount()).toBe(0);

    const next = await uploadForm(toJsonl(predictionLines(release, "dev", "open", 0.5, 302)));
    expect(next.status).toBe(201);
  });

  it("an unwritable staging folder answers a stalled 132 KB upload at once with a 503, no row and no charge", async () => {
    const before = await submissionCount();
    const quotaBefore = await getTestQuota(participant.id, release.releaseId);
    // Root ignores permission bits, so the folder is made unusable by putting a file where it should be.
    await rm(stagingDir(), { recursive: true, force: true });
    await mkdir(path.dirname(stagingDir()), { recursive: true });
    await writeFile(stagingDir(), "not a folder");
    try {
      const text = toJsonl(predictionLines(release, "test", "open", 0.5, 303));
      const content = encoder.encode(text.repeat(Math.ceil((132 * 1024) / text.length)));
      expect(content.length).toBeGreaterThanOrEqual(132 * 1024);
      const sent: Sent = { bytes: 0 };
      // The body never finishes: only an answer that does not wait for it ends this request.
      const response = await POST(uploadRequest(stallingBody(content, sent)));
      expect(response.status).toBe(503);
      expect(response.headers.get("retry-after")).toBe("60");
      expect(response.headers.get("connection")).toBe("close");
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(body.error.code).toBe("unavailable");
      expect(body.error.message).toMatch(/could not store your upload.*no quota was used/);
      expect(body.error.message).not.toMatch(/ENOTDIR|EEXIST|\//);
    } finally {
      await rm(stagingDir(), { force: true });
    }
    expect(await submissionCount()).toBe(before);
    expect(await getTestQuota(participant.id, release.releaseId)).toEqual(quotaBefore);
    expect(openPartDescriptors()).toEqual([]);
  });

  it("a chunked upload that never ends gets a 413 as soon as it crosses the limit", async () => {
    const maxBytes = getEnv().UPLOAD_MAX_BYTES;
    const sent: Sent = { bytes: 0 };
    const response = await POST(uploadRequest(endlessBody(sent)));
    expect(response.status).toBe(413);
    expect(response.headers.get("connection")).toBe("close");
    const body = (await response.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/larger than the .* limit/);
    // Read past the limit by no more than a few chunks of buffering.
    expect(sent.bytes).toBeGreaterThan(maxBytes);
    expect(sent.bytes).toBeLessThan(maxBytes + 4 * 1024 * 1024);
    expect(await partFiles()).toEqual([]);
    expect(openPartDescriptors()).toEqual([]);
  });

  it("a file store that fails after staging answers 503, with no row, no stored chunk and no quota charge", async () => {
    const text = toJsonl(predictionLines(release, "test", "open", 0.5, 304));
    const sha256 = createHash("sha256").update(text).digest("hex");
    const before = await submissionCount();
    const quotaBefore = await getTestQuota(participant.id, release.releaseId);
    // PostgreSQL itself refuses the chunk, as a full tablespace or a lost connection would.
    await failChunkWrites(true);
    try {
      const failed = await uploadForm(text);
      expect(failed.status).toBe(503);
      expect(failed.body.error?.message).toMatch(/could not store your file.*no quota was used/);
    } finally {
      await failChunkWrites(false);
    }
    expect(await submissionCount()).toBe(before);
    expect(await getTestQuota(participant.id, release.releaseId)).toEqual(quotaBefore);
    expect(await db.storedFile.count({ where: { sha256 } })).toBe(0);
    expect(await partFiles()).toEqual([]);

    // The same file once the store is back: stored, charged once.
    const retried = await uploadForm(text);
    expect(retried.status).toBe(201);
    const quotaAfter = await getTestQuota(participant.id, release.releaseId);
    expect(quotaAfter.usedTotal).toBe(quotaBefore.usedTotal + 1);
    expect(await db.storedFile.count({ where: { sha256 } })).toBe(1);
  });

  it("a commit-time check that fails after the file was stored leaves no row, no stored file, no quota charge and no held connection", async () => {
    const text = toJsonl(predictionLines(release, "test", "open", 0.4, 305));
    const sha256 = createHash("sha256").update(text).digest("hex");
    const before = await submissionCount();
    const quotaBefore = await getTestQuota(participant.id, release.releaseId);
    // A deferred constraint trigger: a check PostgreSQL runs at commit, after the row and the chunks were written.
    await failCommits(true);
    try {
      const failed = await uploadForm(text);
      expect(failed.status).toBe(503);
      expect(failed.body.error?.message).toMatch(/could not record your submission.*no quota was used/);
    } finally {
      await failCommits(false);
    }
    expect(await submissionCount()).toBe(before);
    expect(await getTestQuota(participant.id, release.releaseId)).toEqual(quotaBefore);
    expect(await db.storedFile.count({ where: { sha256 } })).toBe(0);
    expect(await db.storedFileChunk.count({ where: { sha256 } })).toBe(0);
    expect(await partFiles()).toEqual([]);
  });
});

/** A trigger that makes every StoredFileChunk insert fail (on) or its removal (off). */
async function failChunkWrites(isOn: boolean): Promise<void> {
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_fail_chunks ON "StoredFileChunk"`);
  if (!isOn) return;
  await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_fail_chunks() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'could not extend file: No space left on device'; END $$`);
  await db.$executeRawUnsafe(`CREATE TRIGGER test_fail_chunks BEFORE INSERT ON "StoredFileChunk" FOR EACH ROW EXECUTE FUNCTION test_fail_chunks()`);
}

/** A deferred constraint trigger on Submission inserts that fails at COMMIT time. */
async function failCommits(isOn: boolean): Promise<void> {
  await db.$executeRawUnsafe(`DROP TRIGGER IF EXISTS test_fail_commit ON "Submission"`);
  if (!isOn) return;
  await db.$executeRawUnsafe(`CREATE OR REPLACE FUNCTION test_fail_commit() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'commit refused'; END $$`);
  await db.$executeRawUnsafe(
    `CREATE CONSTRAINT TRIGGER test_fail_commit AFTER INSERT ON "Submission" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION test_fail_commit()`,
  );
}
