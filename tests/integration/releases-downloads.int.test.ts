import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET } from "@/app/dataset/download/[file]/route";
import type { Entity, EntityType, Sample } from "@/lib/core/dataset/release-schema";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { db } from "@/lib/platform/db";
import { importRelease } from "@/lib/domain/releases/import-release";
import {
  DEMO_RELEASE_DIR,
  entityByQid,
  makeTempDir,
  readReleaseFiles,
  removeTempDirs,
  resetReleaseTables,
  sha256Hex,
  type JsonRecord,
  type RawRelease,
  type SplitName,
} from "./release-support";

/**
 * The participant downloads (protocol section 3) through the route handler
 * itself, on releases imported into the real PostgreSQL: the bytes match the
 * stored digests and headers, are never gzipped by the handler, revalidate by
 * ETag, and are the release's records (with gold for train and dev, without
 * it for test), compared with the release files parsed independently here.
 */

const DOWNLOADS = ["train.jsonl", "dev.jsonl", "test.jsonl", "kb.jsonl"] as const;
type Download = (typeof DOWNLOADS)[number];
const GOLD_KEYS = ["id", "qid", "name", "type", "aliases", "collection", "implicit_text", "explicit_text"];
const PUBLIC_TEST_KEYS = ["id", "collection", "implicit_text"];
const ENTITY_KEYS = ["qid", "name", "type", "aliases", "description", "description_wiki"];

type Digest = { sha256: string; bytes: number };

let demo: RawRelease;
let demoId: string;

async function download(file: string, options: { headers?: Record<string, string>; query?: string } = {}): Promise<Response> {
  const request = new Request(`http://localhost/dataset/download/${file}${options.query ?? ""}`, { headers: options.headers ?? {} });
  return GET(request, { params: Promise.resolve({ file }) });
}

async function bytesOf(response: Response): Promise<Buffer> {
  return Buffer.from(await response.arrayBuffer());
}

function parseJsonl(bytes: Buffer): JsonRecord[] {
  const text = bytes.toString("utf8");
  expect(text.endsWith("\n"), "every line ends with a newline").toBe(true);
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => JSON.parse(line) as JsonRecord);
}

async function storedDigests(releaseId: string): Promise<Record<Download, Digest>> {
  const release = await db.datasetRelease.findUniqueOrThrow({ where: { id: releaseId } });
  return release.downloads as Record<Download, Digest>;
}

/** Train and dev lines as the protocol describes them: the sample with qid, name, type and aliases joined in. */
function expectedGoldLines(release: RawRelease, split: SplitName): JsonRecord[] {
  const byQid = entityByQid(release);
  return release.samples[split].map((sample) => {
    const entity = byQid.get(sample.qid);
    if (!entity) throw new Error(`${sample.id}: ${sample.qid} is not in the KB`);
    return {
      id: sample.id,
      qid: entity.qid,
      name: entity.name,
      type: entity.type,
      aliases: entity.aliases,
      collection: sample.collection,
      implicit_text: sample.implicit_text,
      explicit_text: sample.explicit_text,
    };
  });
}

function expectSameKeysEverywhere(records: readonly JsonRecord[], keys: readonly string[], label: string): void {
  records.forEach((record, index) => expect(Object.keys(record), `${label} line ${index + 1}`).toEqual(keys));
}

beforeAll(async () => {
  await resetReleaseTables();
  demo = await readReleaseFiles(DEMO_RELEASE_DIR);
  demoId = (await importRelease({ dir: DEMO_RELEASE_DIR, activate: true })).releaseId;
});

afterAll(async () => {
  await removeTempDirs();
});

describe("[DOWNLOADS] bytes, digests and headers", () => {
  it.each(DOWNLOADS)("%s: the body hashes to the stored digest, X-Content-SHA256 and ETag; Content-Length is its byte count", async (name) => {
    const digests = await storedDigests(demoId);
    const response = await download(name);
    expect(response.status).toBe(200);
    const bytes = await bytesOf(response);
    const sha256 = sha256Hex(bytes);
    expect(digests[name]).toEqual({ sha256, bytes: bytes.length });
    expect(response.headers.get("x-content-sha256")).toBe(sha256);
    expect(response.headers.get("etag")).toBe(`"${sha256}"`);
    expect(response.headers.get("content-length")).toBe(String(bytes.length));
    expect(response.headers.get("content-encoding")).toBeNull();
    // text/plain, so the server in front (Next.js compression) gzips it for clients that accept gzip: see e2e/dataset.spec.ts.
    expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="irc-bench-demo-1.0-${name}"`);
  });

  it.each(DOWNLOADS)("%s: a client that accepts gzip gets the same identity bytes, declared as such", async (name) => {
    // Next.js's node server drops Content-Encoding from route-handler responses, so a body gzipped
    // by the handler would reach clients as undeclared gzip bytes; the handler never compresses.
    const plain = await bytesOf(await download(name));
    const response = await download(name, { headers: { "Accept-Encoding": "gzip, deflate, br" } });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("etag")).toBe(`"${sha256Hex(plain)}"`);
    const bytes = await bytesOf(response);
    expect(bytes.subarray(0, 2).equals(Buffer.from([0x1f, 0x8b]))).toBe(false);
    expect(bytes.equals(plain)).toBe(true);
  });

  it.each(DOWNLOADS)("%s: two downloads are byte-identical", async (name) => {
    const first = await bytesOf(await download(name));
    const second = await bytesOf(await download(name));
    expect(second.equals(first)).toBe(true);
  });

  it.each(DOWNLOADS)("%s: If-None-Match with the ETag gives 304 and no body", async (name) => {
    const plain = await download(name);
    const etag = plain.headers.get("etag") ?? "";
    await plain.arrayBuffer();
    const notModified = await download(name, { headers: { "If-None-Match": etag } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers.get("etag")).toBe(etag);
    expect((await bytesOf(notModified)).length).toBe(0);
    // If-None-Match compares weakly (RFC 9110 13.1.2): a list, a W/ tag (a proxy that compressed) and "*" all match.
    for (const header of [`"stale", ${etag}`, `W/${etag}`, "*"]) {
      const revalidated = await download(name, { headers: { "If-None-Match": header } });
      expect(revalidated.status, header).toBe(304);
    }
    const stale = await download(name, { headers: { "If-None-Match": `"${"0".repeat(64)}"` } });
    expect(stale.status).toBe(200);
    expect(sha256Hex(await bytesOf(stale))).toBe(etag.slice(1, -1));
  });

  it("?release=ID serves that release, the same bytes as the active one here", async () => {
    const active = await bytesOf(await download("train.jsonl"));
    const byId = await bytesOf(await download("train.jsonl", { query: `?release=${demoId}` }));
    expect(byId.equals(active)).toBe(true);
  });
});

describe("[DOWNLOADS] contents", () => {
  it.each(["train", "dev"] as const)("%s.jsonl: one line per sample in file order, with qid, name, type and aliases joined in", async (split) => {
    const records = parseJsonl(await bytesOf(await download(`${split}.jsonl`)));
    const expected = expectedGoldLines(demo, split);
    expect(records).toHaveLength(demo.samples[split].length);
    expect(records).toEqual(expected);
    expectSameKeysEverywhere(records, GOLD_KEYS, `${split}.jsonl`);
  });

  it("test.jsonl: exactly id, collection and implicit_text per line, in file order, nothing derived from the gold", async () => {
    const bytes = await bytesOf(await download("test.jsonl"));
    const records = parseJsonl(bytes);
    expectSameKeysEverywhere(records, PUBLIC_TEST_KEYS, "test.jsonl");
    expect(records).toEqual(demo.samples.test.map((sample) => ({ id: sample.id, collection: sample.collection, implicit_text: sample.implicit_text })));
    const text = bytes.toString("utf8");
    for (const key of ["qid", "name", "type", "aliases", "explicit_text"]) expect(text).not.toContain(`"${key}"`);
  });

  it("kb.jsonl: one line per entity in file order, equal to the release's entities", async () => {
    const records = parseJsonl(await bytesOf(await download("kb.jsonl")));
    expect(records).toEqual(demo.entities);
    expectSameKeysEverywhere(records, ENTITY_KEYS, "kb.jsonl");
    // The demo kb.jsonl is written with ", " separators, so its bytes differ from the download's compact JSON; the records are equal.
    const file = await readFile(path.join(DEMO_RELEASE_DIR, "kb.jsonl"));
    expect(sha256Hex(file)).not.toBe((await storedDigests(demoId))["kb.jsonl"].sha256);
  });
});

describe("[DOWNLOADS] a synthetic release written by writeRelease", () => {
  let dir: string;
  let releaseId: string;
  let release: RawRelease;

  beforeAll(async () => {
    dir = await makeTempDir();
    await writeRelease(dir, synthesizeRelease({ seed: 11, size: "small" }));
    release = await readReleaseFiles(dir);
    const result = await importRelease({ dir, activate: false });
    expect(result.isActive).toBe(false);
    releaseId = result.releaseId;
  });

  it("kb.jsonl is byte-identical to the release's kb.jsonl (writeRelease writes the same compact JSON lines)", async () => {
    const response = await download("kb.jsonl", { query: `?release=${releaseId}` });
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${release.meta.name}-${release.meta.version}-kb.jsonl"`);
    const served = await bytesOf(response);
    const file = await readFile(path.join(dir, "kb.jsonl"));
    expect(served.equals(file)).toBe(true);
  });

  it("train and dev carry the joined gold, test carries none, all in file order", async () => {
    for (const split of ["train", "dev"] as const) {
      const records = parseJsonl(await bytesOf(await download(`${split}.jsonl`, { query: `?release=${releaseId}` })));
      expect(records, split).toEqual(expectedGoldLines(release, split));
    }
    const test = parseJsonl(await bytesOf(await download("test.jsonl", { query: `?release=${releaseId}` })));
    expectSameKeysEverywhere(test, PUBLIC_TEST_KEYS, "test.jsonl");
    expect(test.map((record) => record.id)).toEqual(release.samples.test.map((sample) => sample.id));
  });
});

describe("[DOWNLOADS] a release larger than one streaming batch", () => {
  const TYPES: EntityType[] = ["Place", "Organization", "Person", "Event", "Work", "Military Unit", "Other"];
  let releaseId: string;
  let release: RawRelease;

  beforeAll(async () => {
    const entities: Entity[] = Array.from({ length: 4500 }, (_, index) => ({
      qid: `Q${900000 + index}`,
      name: `Wide entity ${index}`,
      type: TYPES[index % TYPES.length] ?? "Other",
      aliases: index % 3 === 0 ? [`W${index}`] : [],
      description: index % 5 === 0 ? "" : `entity number ${index}`,
      description_wiki: "",
    }));
    const sample = (split: string, index: number, entity: number): Sample => ({
      id: `wide-${split}-${String(index).padStart(5, "0")}`,
      qid: `Q${900000 + entity}`,
      collection: ["Veterans", "Labor", "Refugee"][index % 3] ?? "Labor",
      implicit_text: `A recollection about something unnamed, told for the ${index}th time.`,
      explicit_text: `A recollection about entity ${entity}.`,
    });
    const samples = {
      train: Array.from({ length: 4100 }, (_, index) => sample("train", index, index % 2000)),
      dev: Array.from({ length: 300 }, (_, index) => sample("dev", index, 2000 + (index % 100))),
      test: Array.from({ length: 300 }, (_, index) => sample("test", index, 2100 + (index % 100))),
    };
    const dir = await makeTempDir();
    await writeRelease(dir, { meta: { name: "irc-bench-wide", version: "0.1", description: "many rows" }, entities, samples });
    release = await readReleaseFiles(dir);
    releaseId = (await importRelease({ dir, activate: false })).releaseId;
  });

  it("streams every entity and sample across batches, in order, with the stored digests", async () => {
    const digests = await storedDigests(releaseId);
    const kb = await bytesOf(await download("kb.jsonl", { query: `?release=${releaseId}` }));
    expect(sha256Hex(kb)).toBe(digests["kb.jsonl"].sha256);
    expect(parseJsonl(kb)).toEqual(release.entities);
    const train = await bytesOf(await download("train.jsonl", { query: `?release=${releaseId}` }));
    expect(sha256Hex(train)).toBe(digests["train.jsonl"].sha256);
    expect(parseJsonl(train)).toEqual(expectedGoldLines(release, "train"));
  });
});

describe("[DOWNLOADS] errors", () => {
  it.each(["secret.jsonl", "test-gold.jsonl", "..%2Fkb.jsonl", "dataset.json"])("an unknown download name (%s) is a 404 JSON error naming the real ones", async (file) => {
    const response = await download(file);
    expect(response.status).toBe(404);
    expect(response.headers.get("content-type")).toContain("application/json");
    expect(await response.json()).toEqual({
      error: { code: "not_found", message: `There is no download called "${file}". Try train.jsonl, dev.jsonl, test.jsonl or kb.jsonl.` },
    });
  });

  it("an unknown release id is a 404", async () => {
    const response = await download("kb.jsonl", { query: "?release=does-not-exist" });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ error: { code: "not_found", message: 'No release with id "does-not-exist".' } });
  });

  it("with no active release every download is a 404 that says how to import one", async () => {
    const active = await db.datasetRelease.findMany({ where: { isActive: true }, select: { id: true } });
    await db.datasetRelease.updateMany({ data: { isActive: false } });
    try {
      for (const name of DOWNLOADS) {
        const response = await download(name);
        expect(response.status, name).toBe(404);
        expect(await response.json()).toEqual({
          error: { code: "not_found", message: "No dataset release is active yet. A maintainer imports one with npm run dataset:import." },
        });
      }
    } finally {
      await db.datasetRelease.updateMany({ where: { id: { in: active.map((row) => row.id) } }, data: { isActive: true } });
    }
  });
});
