import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { DiskFileStore } from "@/lib/files/disk-file-store";
import { getFileStore } from "@/lib/files/file-store";
import { CHUNK_BYTES } from "@/lib/files/postgres-file-store";
import { S3FileStore } from "@/lib/files/s3-file-store";
import { signRequest } from "@/lib/files/sigv4";
import { discardStagedFile, stageUpload, stagingDir, type StagedFile } from "@/lib/files/staging";
import { sweepOrphans } from "@/lib/files/sweep-orphans";
import { getSharedRedis } from "@/lib/redis";
import { processSubmission } from "@/lib/submissions/process-submission";
import { getScoringQueue } from "@/lib/submissions/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { REPO_ROOT } from "./support/processes";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { readStoredText } from "./support/stored-files";
import { submitLines } from "./support/uploads";
import { createTestUser, type TestUser } from "./support/users";

/**
 * The file stores behind lib/files/file-store.ts: PostgreSQL (the default;
 * chunked, deduplicated, streamed), disk, and S3 signed with SigV4 against a
 * small S3-compatible server in this test that checks every signature (no
 * real S3 is reachable from here). Then `npm run files:migrate` and the
 * orphan sweeper.
 */
let release: TestRelease;
let participant: TestUser;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser("file-store");
  // Staged files of an earlier, interrupted run would count as this run's.
  await rm(stagingDir(), { recursive: true, force: true });
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function stageBytes(bytes: Buffer): Promise<StagedFile> {
  return stageUpload(Readable.from([bytes]), Number.MAX_SAFE_INTEGER);
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<{ text: string; pieces: number[] }> {
  const pieces: Buffer[] = [];
  for await (const chunk of chunks) pieces.push(Buffer.from(chunk));
  return { text: Buffer.concat(pieces).toString("utf8"), pieces: pieces.map((piece) => piece.length) };
}

describe("the PostgreSQL store", () => {
  it("keeps a 2.5 MiB file in 1 MiB chunks, reads it back byte for byte chunk by chunk, and the worker scores from it", async () => {
    const lines = predictionLines(release, "dev", "closed", 0.5, 601);
    // Pad the closed-track rankings' JSON with spaces: still valid, now several chunks long.
    const padded = lines.map((line) => line.replace(/^\{/, `{${" ".repeat(Math.ceil((2.5 * CHUNK_BYTES) / lines.length))}`));
    const submission = await submitLines(padded, { userId: participant.id });
    const text = toJsonl(padded);
    const stored = await db.storedFile.findUniqueOrThrow({ where: { sha256: submission.fileSha256 } });
    expect(stored.bytes).toBe(Buffer.byteLength(text));
    expect(stored.chunkCount).toBe(Math.ceil(stored.bytes / CHUNK_BYTES));
    expect(stored.chunkCount).toBe(3);
    const { text: readBack, pieces } = await collect(getFileStore().read(submission.fileSha256));
    expect(readBack).toBe(text);
    expect(pieces.slice(0, 2)).toEqual([CHUNK_BYTES, CHUNK_BYTES]);
    expect(await processSubmission(submission.id)).toBe("scored");
  });

  it("stores the same content once, for any number of submissions", async () => {
    const lines = predictionLines(release, "dev", "open", 0.5, 602);
    const first = await submitLines(lines, { userId: participant.id });
    const second = await submitLines(lines, { userId: participant.id });
    expect(second.fileSha256).toBe(first.fileSha256);
    expect(await db.storedFile.count({ where: { sha256: first.fileSha256 } })).toBe(1);
    expect(await readStoredText(second.fileSha256)).toBe(toJsonl(lines));
  });
});

describe("the disk store", () => {
  it("puts, finds and streams a file under its content address", async () => {
    const root = path.join(getEnv().IRC_DATA_DIR, "disk-store-test");
    await rm(root, { recursive: true, force: true });
    const store = new DiskFileStore(root);
    const staged = await stageBytes(Buffer.from('{"id": "x"}\n'));
    expect(await store.has(staged.sha256)).toBe(false);
    await store.put(staged);
    await store.put(staged);
    expect(await store.has(staged.sha256)).toBe(true);
    expect((await collect(store.read(staged.sha256))).text).toBe('{"id": "x"}\n');
    expect(await readdir(path.join(root, "submissions", staged.sha256.slice(0, 2)))).toEqual([`${staged.sha256}.jsonl`]);
    await discardStagedFile(staged);
  });
});

/** A minimal S3-compatible server: path-style PUT/HEAD/GET/DELETE, each request's SigV4 signature recomputed and checked. */
function startFakeS3(credentials: { accessKeyId: string; secretAccessKey: string }) {
  const objects = new Map<string, Buffer>();
  const refusals: string[] = [];
  const isSignedRight = (request: IncomingMessage, body: Buffer): boolean => {
    const authorization = request.headers.authorization ?? "";
    const signedNames = /SignedHeaders=([^,]+)/.exec(authorization)?.[1]?.split(";") ?? [];
    const headers: Record<string, string> = {};
    for (const name of signedNames) if (name !== "host") headers[name] = String(request.headers[name] ?? "");
    const payloadHash = String(request.headers["x-amz-content-sha256"] ?? "");
    if (request.method === "PUT" && createHash("sha256").update(body).digest("hex") !== payloadHash) return false;
    const expected = signRequest({
      method: request.method ?? "GET",
      url: new URL(request.url ?? "/", `http://${request.headers.host ?? ""}`),
      headers,
      payloadHash,
      region: "eu-west-1",
      service: "s3",
      credentials,
      amzDate: String(request.headers["x-amz-date"] ?? ""),
    });
    return expected.headers.authorization === authorization;
  };
  const server: Server = createServer((request, response) => {
    const pieces: Buffer[] = [];
    request.on("data", (piece: Buffer) => pieces.push(piece));
    request.on("end", () => {
      const body = Buffer.concat(pieces);
      if (!isSignedRight(request, body)) {
        refusals.push(`${request.method ?? ""} ${request.url ?? ""}`);
        response.writeHead(403).end("<Error><Code>SignatureDoesNotMatch</Code></Error>");
        return;
      }
      const key = request.url ?? "";
      if (request.method === "PUT") {
        if (Number(request.headers["content-length"]) !== body.length) return void response.writeHead(400).end();
        objects.set(key, body);
        return void response.writeHead(200).end();
      }
      const object = objects.get(key);
      if (request.method === "DELETE") {
        objects.delete(key);
        return void response.writeHead(204).end();
      }
      if (!object) return void response.writeHead(404).end("<Error><Code>NoSuchKey</Code></Error>");
      response.writeHead(200, { "content-length": String(object.length) });
      response.end(request.method === "HEAD" ? undefined : object);
    });
  });
  return { server, objects, refusals };
}

describe("the S3 store (SigV4 with fetch)", () => {
  it("puts, finds and streams a file, every request signed as S3 checks it; a wrong secret is refused with a clear error", async () => {
    const credentials = { accessKeyId: "AKIDTESTSTORE", secretAccessKey: "secret-of-the-test-store" };
    const fake = startFakeS3(credentials);
    await new Promise<void>((resolve) => fake.server.listen(0, "127.0.0.1", resolve));
    try {
      const endpoint = `http://127.0.0.1:${(fake.server.address() as AddressInfo).port}`;
      const store = new S3FileStore({ endpoint, bucket: "irc-bench", region: "eu-west-1", prefix: "submissions/", credentials });
      const text = toJsonl(predictionLines(release, "dev", "open", 0.5, 603));
      const staged = await stageBytes(Buffer.from(text));
      expect(await store.has(staged.sha256)).toBe(false);
      await store.put(staged);
      expect([...fake.objects.keys()]).toEqual([`/irc-bench/submissions/${staged.sha256}.jsonl`]);
      expect(await store.has(staged.sha256)).toBe(true);
      expect((await collect(store.read(staged.sha256))).text).toBe(text);
      expect(fake.refusals).toEqual([]);
      await discardStagedFile(staged);

      const wrong = new S3FileStore({ endpoint, bucket: "irc-bench", region: "eu-west-1", prefix: "submissions/", credentials: { ...credentials, secretAccessKey: "wrong" } });
      await expect(wrong.has(staged.sha256)).rejects.toThrow(/S3 HEAD \/irc-bench\/submissions\/[0-9a-f]{64}\.jsonl answered 403/);
    } finally {
      await new Promise<void>((resolve) => fake.server.close(() => resolve()));
    }
  });
});

describe("npm run files:migrate", () => {
  it("copies files of the disk layout into the PostgreSQL store, once, and reports what is missing", async () => {
    const lines = predictionLines(release, "dev", "open", 0.3, 604);
    const submission = await submitLines(lines, { userId: participant.id });
    // As a release before the PostgreSQL store left it: the file on disk only.
    const disk = new DiskFileStore(getEnv().IRC_DATA_DIR);
    await mkdir(path.dirname(disk.pathOf(submission.fileSha256)), { recursive: true });
    await writeFile(disk.pathOf(submission.fileSha256), toJsonl(lines));
    await db.storedFile.delete({ where: { sha256: submission.fileSha256 } });
    const ghost = await submitLines(predictionLines(release, "dev", "open", 0.3, 605), { userId: participant.id });
    await db.storedFile.delete({ where: { sha256: ghost.fileSha256 } });

    const migrate = () => {
      try {
        return { code: 0, out: execFileSync("npm", ["run", "--silent", "files:migrate"], { cwd: REPO_ROOT, env: process.env, encoding: "utf8" }) };
      } catch (error) {
        const failed = error as { status: number; stdout: string };
        return { code: failed.status, out: failed.stdout };
      }
    };
    const first = migrate();
    expect(first.out).toContain(`copied: ${submission.fileSha256}`);
    expect(first.out).toContain(`missing: ${ghost.fileSha256} is in neither the disk nor the postgres store`);
    expect(first.out).toMatch(/files:migrate disk -> postgres: 1 copied, \d+ already there, 1 missing, 0 damaged\./);
    expect(first.code).toBe(1);
    expect(await readStoredText(submission.fileSha256)).toBe(toJsonl(lines));
    expect(await processSubmission(submission.id)).toBe("scored");

    const second = migrate();
    expect(second.out).toMatch(/files:migrate disk -> postgres: 0 copied, \d+ already there, 1 missing, 0 damaged\./);
    await db.submission.delete({ where: { id: ghost.id } });
    expect(migrate()).toMatchObject({ code: 0 });
  }, 180_000);
});

describe("the orphan sweeper", () => {
  it("removes old staged files and stored files no submission refers to, and keeps the rest", async () => {
    const orphan = await stageBytes(Buffer.from('{"id": "orphan"}\n'));
    const recentOrphan = await stageBytes(Buffer.from('{"id": "recent orphan"}\n'));
    await db.$transaction((tx) => getFileStore().put(orphan, tx));
    await db.$transaction((tx) => getFileStore().put(recentOrphan, tx));
    await db.storedFile.update({ where: { sha256: orphan.sha256 }, data: { lastUsedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) } });
    const referenced = await submitLines(predictionLines(release, "dev", "open", 0.3, 606), { userId: participant.id });
    await db.storedFile.update({ where: { sha256: referenced.fileSha256 }, data: { lastUsedAt: new Date(Date.now() - 2 * 60 * 60 * 1000) } });
    // Staged files: one a crashed process left two hours ago (orphan's), one still being received (recentOrphan's).
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(orphan.tempPath, twoHoursAgo, twoHoursAgo);

    const swept = await sweepOrphans();
    expect(swept).toEqual({ stagedFiles: 1, storedFiles: 1 });
    expect(await db.storedFile.count({ where: { sha256: orphan.sha256 } })).toBe(0);
    expect(await db.storedFileChunk.count({ where: { sha256: orphan.sha256 } })).toBe(0);
    expect(await db.storedFile.count({ where: { sha256: recentOrphan.sha256 } })).toBe(1);
    expect(await db.storedFile.count({ where: { sha256: referenced.fileSha256 } })).toBe(1);
    expect(await readdir(stagingDir())).toEqual([path.basename(recentOrphan.tempPath)]);
    await rm(recentOrphan.tempPath);
    expect(await sweepOrphans()).toEqual({ stagedFiles: 0, storedFiles: 0 });
  });
});
