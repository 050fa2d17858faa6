import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdir, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { Readable } from "node:stream";
import { DeleteObjectCommand, ListObjectsV2Command, S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/platform/db";
import { getEnv, type Env } from "@/lib/platform/env";
import { DiskFileStore } from "@/lib/platform/files/disk-file-store";
import { getFileStore } from "@/lib/platform/files/file-store";
import { StoredFileMissingError, type FileStore } from "@/lib/platform/files/store-contract";
import { CHUNK_BYTES, PostgresFileStore } from "@/lib/platform/files/postgres-file-store";
import { S3FileStore } from "@/lib/platform/files/s3-file-store";
import { discardStagedFile, stageUpload, stagingDir, type StagedFile } from "@/lib/platform/files/staging";
import { sweepOrphans } from "@/lib/platform/files/sweep-orphans";
import { getSharedRedis } from "@/lib/platform/redis";
import { processSubmission } from "@/lib/domain/scoring/process-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { assertTestServices } from "@/testing/local-database";
import { REPO_ROOT } from "./support/processes";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { readStoredText } from "./support/stored-files";
import { submitLines } from "./support/uploads";
import { createTestUser, type TestUser } from "@/testing/test-users";

/**
 * The file stores behind lib/platform/files/file-store.ts: PostgreSQL (the default;
 * chunked, deduplicated, streamed), disk, and S3 through the AWS SDK against
 * s3rver from npm, started here (no real S3 is reachable from this machine).
 * One contract for all three, then what is particular to each, `npm run
 * files:migrate` and the orphan sweeper.
 */
let release: TestRelease;
let participant: TestUser;

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser({ label: "file-store", withoutPassword: true });
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

const MIB = 1024 * 1024;

async function collectBuffers(chunks: AsyncIterable<Uint8Array>): Promise<Buffer[]> {
  const pieces: Buffer[] = [];
  for await (const chunk of chunks) pieces.push(Buffer.from(chunk));
  return pieces;
}

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<{ text: string; pieces: number[] }> {
  const pieces: Buffer[] = [];
  for await (const chunk of chunks) pieces.push(Buffer.from(chunk));
  return { text: Buffer.concat(pieces).toString("utf8"), pieces: pieces.map((piece) => piece.length) };
}

describe("the PostgreSQL store in the upload path", () => {
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

/**
 * What every store promises (lib/platform/files/file-store.ts), run on each: the bytes
 * back as they went in, a file of several chunks or parts, a second put of
 * the same content changing nothing, a file that is not there (never stored,
 * or removed behind the store's back) read as StoredFileMissingError, and a
 * put restoring a removed one.
 */
type StoreUnderTest = {
  store: FileStore;
  /** Removes a stored file as an operator (or a bucket's lifecycle rule) would, outside the store. */
  remove(sha256: string): Promise<void>;
  /** How many copies of the file the store holds (rows, files, objects). */
  copies(sha256: string): Promise<number>;
};

const putInTransaction = (store: FileStore, staged: StagedFile) => db.$transaction((tx) => store.put(staged, tx), { timeout: 60_000 });

/** Larger than S3's 5 MiB part (the test store's part size) twice over: three parts, eleven PostgreSQL chunks. */
const LARGE_BYTES = 2 * 5 * MIB + 123_457;

function largeJsonl(): Buffer {
  const line = (index: number) => `{"id": "large-${index}", "prediction": "${"x".repeat(90)}"}\n`;
  const lines: string[] = [];
  let bytes = 0;
  for (let index = 0; bytes < LARGE_BYTES; index += 1) {
    lines.push(line(index));
    bytes += Buffer.byteLength(line(index));
  }
  return Buffer.from(lines.join("")).subarray(0, LARGE_BYTES);
}

const storeCases: { name: string; open: () => Promise<StoreUnderTest> }[] = [
  {
    name: "the PostgreSQL store",
    open: async () => ({
      store: new PostgresFileStore(),
      remove: async (sha256) => void (await db.storedFile.delete({ where: { sha256 } })),
      copies: (sha256) => db.storedFile.count({ where: { sha256 } }),
    }),
  },
  {
    name: "the disk store",
    open: async () => {
      const root = path.join(getEnv().IRC_DATA_DIR, "disk-store-test");
      await rm(root, { recursive: true, force: true });
      const store = new DiskFileStore(root);
      return {
        store,
        remove: (sha256) => rm(store.pathOf(sha256)),
        copies: async (sha256) => (await readdir(path.dirname(store.pathOf(sha256))).catch(() => [])).filter((name) => name.startsWith(sha256)).length,
      };
    },
  },
  {
    name: "the S3 store (s3rver)",
    open: async () => {
      const bucket = s3rver();
      const store = bucket.storeWith({});
      return {
        store,
        remove: (sha256) => bucket.deleteObject(store.keyOf(sha256)),
        copies: async (sha256) => (await bucket.keys()).filter((key) => key.includes(sha256)).length,
      };
    },
  },
];

describe.each(storeCases)("$name", ({ open }) => {
  let subject: StoreUnderTest;
  beforeAll(async () => {
    subject = await open();
  });

  it("stores a file, finds it, and streams it back byte for byte; a second put of the same bytes changes nothing", async () => {
    const text = toJsonl(predictionLines(release, "dev", "open", 0.5, 603));
    const staged = await stageBytes(Buffer.from(text));
    try {
      expect(await subject.store.has(staged.sha256)).toBe(false);
      await putInTransaction(subject.store, staged);
      expect(await subject.store.has(staged.sha256)).toBe(true);
      expect((await collect(subject.store.read(staged.sha256))).text).toBe(text);
      await putInTransaction(subject.store, staged);
      expect(await subject.copies(staged.sha256)).toBe(1);
      expect((await collect(subject.store.read(staged.sha256))).text).toBe(text);
    } finally {
      await discardStagedFile(staged);
    }
  });

  it(`stores a file of ${LARGE_BYTES} bytes (several chunks or parts) and reads back the same bytes in order`, async () => {
    const bytes = largeJsonl();
    const staged = await stageBytes(bytes);
    try {
      await putInTransaction(subject.store, staged);
      const pieces: Buffer[] = [];
      for await (const chunk of subject.store.read(staged.sha256)) pieces.push(Buffer.from(chunk));
      const back = Buffer.concat(pieces);
      expect(back.length).toBe(LARGE_BYTES);
      expect(createHash("sha256").update(back).digest("hex")).toBe(staged.sha256);
      expect(pieces.length).toBeGreaterThan(1);
    } finally {
      await discardStagedFile(staged);
    }
  });

  it("reads a file it never stored as missing, naming the file", async () => {
    const absent = createHash("sha256").update("never stored").digest("hex");
    expect(await subject.store.has(absent)).toBe(false);
    await expect(collect(subject.store.read(absent))).rejects.toThrow(StoredFileMissingError);
    await expect(collect(subject.store.read(absent))).rejects.toThrow(`the prediction file ${absent} is not in the`);
  });

  it("reads a file removed behind its back as missing, and a new put of its bytes restores it", async () => {
    const text = '{"id": "removed"}\n';
    const staged = await stageBytes(Buffer.from(text));
    try {
      await putInTransaction(subject.store, staged);
      await subject.remove(staged.sha256);
      expect(await subject.store.has(staged.sha256)).toBe(false);
      await expect(collect(subject.store.read(staged.sha256))).rejects.toThrow(StoredFileMissingError);
      await putInTransaction(subject.store, staged);
      expect((await collect(subject.store.read(staged.sha256))).text).toBe(text);
    } finally {
      await discardStagedFile(staged);
    }
  });
});

describe("the disk store's layout", () => {
  it("keeps a file at submissions/<first two hex>/<sha256>.jsonl", async () => {
    const root = path.join(getEnv().IRC_DATA_DIR, "disk-layout-test");
    await rm(root, { recursive: true, force: true });
    const store = new DiskFileStore(root);
    const staged = await stageBytes(Buffer.from('{"id": "x"}\n'));
    await store.put(staged);
    expect(await readdir(path.join(root, "submissions", staged.sha256.slice(0, 2)))).toEqual([`${staged.sha256}.jsonl`]);
    await discardStagedFile(staged);
  });
});

type RecordedRequest = { method: string; url: string; headers: IncomingHttpHeaders };

/**
 * s3rver (npm, an S3 implementation written by others) in this process,
 * behind a server of the test's own that notes each request's method, URL
 * and headers before s3rver handles it.
 */
type S3rverHandle = {
  endpoint: string;
  bucket: string;
  requests: RecordedRequest[];
  /** Object-created events s3rver emitted: "ObjectCreated:Put" (one PUT) or "ObjectCreated:Post" (a completed multipart upload). */
  created: { eventName: string; key: string }[];
  /** The next this many requests are answered 503 SlowDown instead of reaching s3rver. */
  faults: number;
  storeWith(overrides: Partial<Env>): S3FileStore;
  keys(): Promise<string[]>;
  deleteObject(key: string): Promise<void>;
};

let running: (S3rverHandle & { server: Server; client: S3Client }) | undefined;

function s3rver(): S3rverHandle {
  if (!running) throw new Error("s3rver is not running");
  return running;
}

beforeAll(async () => {
  const directory = path.join(getEnv().IRC_DATA_DIR, "s3rver");
  await rm(directory, { recursive: true, force: true });
  const bucket = "irc-bench";
  const instance = new S3rver({ directory, silent: true, configureBuckets: [{ name: bucket }], vhostBuckets: false });
  await instance.configureBuckets();
  const handler = instance.callback();
  const requests: RecordedRequest[] = [];
  const created: { eventName: string; key: string }[] = [];
  instance.on("event", (event) => {
    for (const record of event.Records) created.push({ eventName: record.eventName, key: record.s3.object.key });
  });
  // Only the head is noted: reading the body here would take it from s3rver.
  const server = createServer((request, response) => {
    requests.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers });
    if (running && running.faults > 0) {
      // What S3 answers when it sheds load: the SDK's retries are meant for exactly this.
      running.faults -= 1;
      request.resume();
      response.writeHead(503, { "content-type": "application/xml" }).end("<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>");
      return;
    }
    handler(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const credentials = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };
  const client = new S3Client({ endpoint, region: "us-east-1", forcePathStyle: true, credentials });
  const baseEnv = getEnv();
  running = {
    server,
    client,
    endpoint,
    bucket,
    requests,
    created,
    faults: 0,
    storeWith: (overrides) =>
      S3FileStore.fromEnv({
        ...baseEnv,
        IRC_FILE_STORE: "s3",
        IRC_S3_BUCKET: bucket,
        IRC_S3_ENDPOINT: endpoint,
        IRC_S3_ACCESS_KEY_ID: credentials.accessKeyId,
        IRC_S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
        IRC_S3_PART_BYTES: 5 * MIB,
        ...overrides,
      }),
    keys: async () => ((await client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : [])),
    deleteObject: async (key) => void (await client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key }))),
  };
});

afterAll(async () => {
  if (!running) return;
  running.client.destroy();
  const { server } = running;
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe("the S3 store (AWS SDK against s3rver)", () => {
  it("keys objects PREFIX<sha256>.jsonl at ENDPOINT/BUCKET/KEY (path-style with an endpoint), and sends a one-part file in one PUT with its SHA-256", async () => {
    const bucket = s3rver();
    const store = bucket.storeWith({ IRC_S3_PREFIX: "runs/" });
    const text = toJsonl(predictionLines(release, "dev", "closed", 0.5, 607));
    const staged = await stageBytes(Buffer.from(text));
    bucket.requests.length = 0;
    await store.put(staged);
    expect(await bucket.keys()).toContain(`runs/${staged.sha256}.jsonl`);
    const puts = bucket.requests.filter((request) => request.method === "PUT");
    expect(puts.map((request) => request.url.split("?")[0])).toEqual([`/irc-bench/runs/${staged.sha256}.jsonl`]);
    // The checksum AWS verifies before storing: the file's content address, base64.
    expect(puts[0]?.headers["x-amz-checksum-sha256"]).toBe(Buffer.from(staged.sha256, "hex").toString("base64"));
    expect(bucket.created.filter((event) => event.key === `runs/${staged.sha256}.jsonl`).map((event) => event.eventName)).toEqual(["ObjectCreated:Put"]);
    await discardStagedFile(staged);
  });

  it("sends a file above the part size as a multipart upload, each part with its own SHA-256", async () => {
    const bucket = s3rver();
    // A prefix of its own: the contract tests above stored these bytes under the default one.
    const store = bucket.storeWith({ IRC_S3_PREFIX: "multipart/" });
    const bytes = largeJsonl();
    const staged = await stageBytes(bytes);
    bucket.requests.length = 0;
    await store.put(staged);
    const key = `/irc-bench/multipart/${staged.sha256}.jsonl`;
    const parts = bucket.requests.filter((request) => request.method === "PUT" && request.url.startsWith(`${key}?`));
    // 5 MiB, 5 MiB and the rest, worked out from LARGE_BYTES.
    const expectedParts = [bytes.subarray(0, 5 * MIB), bytes.subarray(5 * MIB, 10 * MIB), bytes.subarray(10 * MIB)];
    expect(parts.length).toBe(3);
    const digests = expectedParts.map((part) => createHash("sha256").update(part).digest());
    expect(parts.map((part) => part.headers["x-amz-checksum-sha256"]).sort()).toEqual(digests.map((digest) => digest.toString("base64")).sort());
    expect(bucket.requests.some((request) => request.method === "POST" && request.url.startsWith(`${key}?uploads`))).toBe(true);
    expect(bucket.created.filter((event) => event.key === `multipart/${staged.sha256}.jsonl`).map((event) => event.eventName)).toEqual(["ObjectCreated:Post"]);
    expect(createHash("sha256").update(Buffer.concat(await collectBuffers(store.read(staged.sha256)))).digest("hex")).toBe(staged.sha256);
    await discardStagedFile(staged);
  });

  it("retries a request S3 answers 503 (the SDK's standard retries, IRC_S3_MAX_ATTEMPTS attempts), and reports the answer once they are spent", async () => {
    const bucket = s3rver();
    const staged = await stageBytes(Buffer.from('{"id": "retried"}\n'));
    try {
      bucket.requests.length = 0;
      bucket.faults = 2;
      const store = bucket.storeWith({ IRC_S3_MAX_ATTEMPTS: 3 });
      await store.put(staged);
      expect(bucket.faults).toBe(0);
      // The HEAD of put() was answered 503 twice and then went through.
      expect(bucket.requests.map((request) => request.method).slice(0, 3)).toEqual(["HEAD", "HEAD", "HEAD"]);
      expect(await store.has(staged.sha256)).toBe(true);

      bucket.faults = 1;
      const once = bucket.storeWith({ IRC_S3_MAX_ATTEMPTS: 1 });
      await expect(once.has(staged.sha256)).rejects.toThrow(`S3 HEAD irc-bench/submissions/${staged.sha256}.jsonl answered 503 (Service Unavailable)`);
      expect(await once.has(staged.sha256)).toBe(true);
    } finally {
      bucket.faults = 0;
      await discardStagedFile(staged);
    }
  });

  it("without static keys takes the credentials from the AWS SDK's default chain, and says which request a refused key failed", async () => {
    const bucket = s3rver();
    const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
    const staged = await stageBytes(Buffer.from('{"id": "chain"}\n'));
    try {
      // The chain's first provider reads these; s3rver knows the key pair S3RVER/S3RVER only.
      process.env.AWS_ACCESS_KEY_ID = "S3RVER";
      process.env.AWS_SECRET_ACCESS_KEY = "S3RVER";
      const fromChain = bucket.storeWith({ IRC_S3_ACCESS_KEY_ID: undefined, IRC_S3_SECRET_ACCESS_KEY: undefined });
      await fromChain.put(staged);
      expect(await fromChain.has(staged.sha256)).toBe(true);
      const authorization = bucket.requests.at(-1)?.headers.authorization ?? "";
      expect(authorization).toMatch(/^AWS4-HMAC-SHA256 Credential=S3RVER\//);

      process.env.AWS_ACCESS_KEY_ID = "NOT-A-KEY-S3RVER-KNOWS";
      const refused = bucket.storeWith({ IRC_S3_ACCESS_KEY_ID: undefined, IRC_S3_SECRET_ACCESS_KEY: undefined });
      await expect(refused.has(staged.sha256)).rejects.toThrow(
        new RegExp(`^S3 HEAD irc-bench/submissions/${staged.sha256}\\.jsonl answered 403 \\(Forbidden\\)$`),
      );
    } finally {
      for (const [name, value] of [["AWS_ACCESS_KEY_ID", saved.id], ["AWS_SECRET_ACCESS_KEY", saved.secret]] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await discardStagedFile(staged);
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
