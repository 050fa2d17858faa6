import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { synthesizePredictions } from "@/testing/synthetic/synth-predictions";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { MAX_CACHE_ENTRIES, MAX_OUTCOME_ENTRIES, readBaselineOutcomes, readReleaseCache, writeBaselineOutcomes, writeReleaseCache } from "./score-cache";

/**
 * The compiled scorer's cache (scripts/participant/score-cache.ts): a run
 * that reads a release or a baseline's outcomes from the cache prints what a
 * run that reads and validates the files prints, and any change to a release
 * or baseline file is a miss, never a stale entry. Whether a run hit or
 * missed is read from its phase lines (IRC_BENCH_SCORE_TIMINGS=1).
 */

const ROOT = path.resolve(__dirname, "../..");
const BUILD = path.join(ROOT, "scripts", "build", "build-cli.mjs");
const BUNDLE = path.join(ROOT, "dist", "cli", "irc-bench-score.mjs");
const run = promisify(execFile);

type CliResult = { status: number; stdout: string; stderr: string; cache: "hit" | "miss" | "none"; baselinesFromCache: number | null };

let dir = "";
let releaseDir = "";
let cacheDir = "";
const files = { closed: "", open: "", baseline: "", baseline2: "" };

async function score(args: readonly string[], bundle = BUNDLE): Promise<CliResult> {
  const env = { ...process.env, IRC_BENCH_CACHE_DIR: cacheDir, IRC_BENCH_SCORE_TIMINGS: "1" };
  let result: Omit<CliResult, "cache" | "baselinesFromCache">;
  try {
    const { stdout, stderr } = await run(process.execPath, [bundle, ...args], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    result = { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    result = { status: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
  const cache = /release cache: .*, hit/.test(result.stderr) ? "hit" : /release cache: .*, miss/.test(result.stderr) ? "miss" : "none";
  const baselines = /baseline files \((\d+) of \d+ from the cache\)/.exec(result.stderr);
  return { ...result, cache, baselinesFromCache: baselines === null ? null : Number(baselines[1]) };
}

const cacheEntries = async (prefix = "release-") => (await readdir(cacheDir)).filter((name) => name.startsWith(prefix) && name.endsWith(".json"));

function argsFor(predictions: string, extra: readonly string[] = []): string[] {
  return ["--release", releaseDir, "--split", "dev", "--predictions", predictions, "--resamples", "200", ...extra];
}

beforeAll(async () => {
  await run(process.execPath, [BUILD, "--if-stale"], { cwd: ROOT });
  dir = await mkdtemp(path.join(tmpdir(), "score-cache-"));
  cacheDir = path.join(dir, "cache");
  releaseDir = path.join(dir, "release");
  const release = synthesizeRelease({ seed: 11, size: "small" });
  await writeRelease(releaseDir, release);
  const write = async (name: string, track: "open" | "closed", seed: number) => {
    const file = path.join(dir, name);
    const lines = synthesizePredictions({ samples: release.samples.dev, entities: release.entities, track, accuracy: 0.4, seed, rankingLength: 20 });
    await writeFile(file, `${lines.join("\n")}\n`);
    return file;
  };
  files.closed = await write("closed.jsonl", "closed", 1);
  files.open = await write("open.jsonl", "open", 2);
  files.baseline = await write("baseline.jsonl", "closed", 3);
  files.baseline2 = await write("baseline2.jsonl", "closed", 4);
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the offline scorer's release cache", () => {
  it("validates and stores on the first run, and a later run from the cache prints the same report as --no-cache", async () => {
    const cases = [
      argsFor(files.closed, ["--json"]),
      argsFor(files.closed, ["--baseline", files.baseline, "--baseline", files.open]),
      argsFor(files.open, ["--json", "--baseline", files.closed]),
    ];
    const first = await score(cases[0] ?? []);
    expect(first.status).toBe(0);
    expect(first.cache).toBe("miss");
    expect(await cacheEntries()).toHaveLength(1);
    for (const args of cases) {
      const cached = await score(args);
      const uncached = await score([...args, "--no-cache"]);
      expect(cached.status).toBe(0);
      expect(cached.cache).toBe("hit");
      expect(uncached.cache).toBe("none");
      expect(cached.stdout).toBe(uncached.stdout);
    }
    expect(first.stdout).toBe((await score([...(cases[0] ?? []), "--no-cache"])).stdout);
  }, 120_000);

  it("misses when a release file changed, and scores the changed release", async () => {
    const args = argsFor(files.closed, ["--json"]);
    await score(args); // stored
    const before = await score(args);
    expect(before.cache).toBe("hit");
    // One sample moves to another collection: only the split file changes.
    const devFile = path.join(releaseDir, "dev.jsonl");
    const original = await readFile(devFile, "utf8");
    const [firstLine = "", ...rest] = original.split("\n");
    const sample = JSON.parse(firstLine) as { collection: string };
    await writeFile(devFile, [JSON.stringify({ ...sample, collection: "A Collection Of One" }), ...rest].join("\n"));
    const after = await score(args);
    expect(after.status).toBe(0);
    expect(after.cache).toBe("miss");
    expect(after.stdout).not.toBe(before.stdout);
    expect(after.stdout).toContain('"A Collection Of One"');
    expect(after.stdout).toBe((await score([...args, "--no-cache"])).stdout);
    // Back to the original bytes: its entry is still there and still right.
    await writeFile(devFile, original);
    const restored = await score(args);
    expect(restored.cache).toBe("hit");
    expect(restored.stdout).toBe(before.stdout);
  }, 120_000);

  it("validates a changed KB in full: an invalid one is refused although an earlier version is cached", async () => {
    const args = argsFor(files.closed, ["--json"]);
    expect((await score(args)).cache).toBe("hit");
    const kbFile = path.join(releaseDir, "kb.jsonl");
    const original = await readFile(kbFile, "utf8");
    const [firstLine = "", ...rest] = original.split("\n");
    const entries = await cacheEntries();
    // The first entity twice: a duplicate qid (protocol section 2).
    await writeFile(kbFile, [firstLine, firstLine, ...rest].join("\n"));
    try {
      const result = await score(args);
      expect(result.status).toBe(2);
      expect(result.stderr).toContain("cannot be used");
      expect(result.stderr).toMatch(/kb\.jsonl:2: .*duplicate/i);
      expect(await cacheEntries()).toEqual(entries);
    } finally {
      await writeFile(kbFile, original);
    }
  }, 120_000);

  it("reads a damaged cache entry as a miss", async () => {
    const args = argsFor(files.closed, ["--json"]);
    const expected = (await score([...args, "--no-cache"])).stdout;
    for (const name of await cacheEntries()) {
      const file = path.join(cacheDir, name);
      const text = await readFile(file, "utf8");
      await writeFile(file, text.slice(0, text.length >> 1));
    }
    const damaged = await score(args);
    expect(damaged.cache).toBe("miss");
    expect(damaged.stdout).toBe(expected);
    expect((await score(args)).cache).toBe("hit");
  }, 120_000);
});

describe("the cache of baseline outcomes", () => {
  // A closed-track baseline the scanner takes (cached) and an open-track one (validated on every run).
  const withBaselines = () => argsFor(files.closed, ["--json", "--baseline", files.baseline2, "--baseline", files.open]);
  const outcomeEntries = () => cacheEntries("outcomes-");

  it("keeps a valid closed-track baseline's outcomes, and a run from them prints what --no-cache prints", async () => {
    const expected = (await score([...withBaselines(), "--no-cache"])).stdout;
    await Promise.all((await outcomeEntries()).map((name) => rm(path.join(cacheDir, name))));
    const first = await score(withBaselines());
    expect(first.status).toBe(0);
    expect(first.baselinesFromCache).toBe(0);
    expect(first.stdout).toBe(expected);
    expect(await outcomeEntries()).toHaveLength(1);
    const again = await score(withBaselines());
    expect(again.baselinesFromCache).toBe(1);
    expect(again.stdout).toBe(expected);
    const uncached = await score([...withBaselines(), "--no-cache"]);
    expect(uncached.baselinesFromCache).toBe(0);
    expect(await outcomeEntries()).toHaveLength(1);
  }, 120_000);

  it("misses on a changed baseline: a changed valid one is scored anew, a changed invalid one is refused and never kept", async () => {
    const original = await readFile(files.baseline2, "utf8");
    expect((await score(withBaselines())).baselinesFromCache).toBe(1);
    const [firstLine = "", secondLine = "", ...rest] = original.split("\n");
    try {
      // The first two lines swapped: the same predictions, other bytes.
      await writeFile(files.baseline2, [secondLine, firstLine, ...rest].join("\n"));
      const reordered = await score(withBaselines());
      expect(reordered.status).toBe(0);
      expect(reordered.baselinesFromCache).toBe(0);
      expect(reordered.stdout).toBe((await score([...withBaselines(), "--no-cache"])).stdout);
      expect((await score(withBaselines())).baselinesFromCache).toBe(1);
      // The first sample twice: invalid, whatever was cached for other bytes, and so on every run.
      const entries = await outcomeEntries();
      await writeFile(files.baseline2, [firstLine, firstLine, ...rest].join("\n"));
      for (let run = 0; run < 2; run += 1) {
        const invalid = await score(withBaselines());
        expect(invalid.status).toBe(1);
        expect(invalid.stderr).toContain(`${files.baseline2}:2:`);
      }
      expect(await outcomeEntries()).toEqual(entries);
    } finally {
      await writeFile(files.baseline2, original);
    }
    expect((await score(withBaselines())).baselinesFromCache).toBe(1);
  }, 120_000);

  it("misses under another release: the same baseline bytes against a changed split are scored anew", async () => {
    expect((await score(withBaselines())).baselinesFromCache).toBe(1);
    const devFile = path.join(releaseDir, "dev.jsonl");
    const original = await readFile(devFile, "utf8");
    const [firstLine = "", ...rest] = original.split("\n");
    const sample = JSON.parse(firstLine) as { collection: string };
    try {
      await writeFile(devFile, [JSON.stringify({ ...sample, collection: "Another Collection" }), ...rest].join("\n"));
      const changed = await score(withBaselines());
      expect(changed.status).toBe(0);
      expect(changed.baselinesFromCache).toBe(0);
      expect(changed.stdout).toBe((await score([...withBaselines(), "--no-cache"])).stdout);
      expect((await score(withBaselines())).baselinesFromCache).toBe(1);
    } finally {
      await writeFile(devFile, original);
    }
    expect((await score(withBaselines())).baselinesFromCache).toBe(1);
  }, 120_000);

  it("reads a damaged entry, codes that fail their checksum, or codes of another length as a miss", async () => {
    const expected = (await score([...withBaselines(), "--no-cache"])).stdout;
    const rewrite = async (change: (text: string) => string) => {
      for (const name of await outcomeEntries()) {
        const file = path.join(cacheDir, name);
        await writeFile(file, change(await readFile(file, "utf8")));
      }
    };
    const otherCodes = Buffer.from([1, 2, 3]);
    const changes: ((text: string) => string)[] = [
      (text) => text.slice(0, text.length >> 1),
      (text) => JSON.stringify({ ...(JSON.parse(text) as object), codes: otherCodes.toString("base64") }),
      (text) => JSON.stringify({ ...(JSON.parse(text) as object), codes: otherCodes.toString("base64"), sha256: createHash("sha256").update(otherCodes).digest("hex") }),
    ];
    for (const change of changes) {
      expect((await score(withBaselines())).baselinesFromCache).toBe(1);
      await rewrite(change);
      const result = await score(withBaselines());
      expect(result.status).toBe(0);
      expect(result.baselinesFromCache).toBe(0);
      expect(result.stdout).toBe(expected);
      await Promise.all((await outcomeEntries()).map((name) => rm(path.join(cacheDir, name))));
      await score(withBaselines());
    }
    const store = await mkdtemp(path.join(tmpdir(), "score-cache-outcomes-"));
    try {
      await writeBaselineOutcomes(store, "k", { track: "closed", codes: Uint8Array.from([1, 0, 0x81]) });
      expect(readBaselineOutcomes(store, "k")).toEqual({ track: "closed", codes: Uint8Array.from([1, 0, 0x81]) });
      expect(readBaselineOutcomes(store, "other")).toBeNull();
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  }, 120_000);

  it("misses under another build of the scorer (its code may validate otherwise): both kinds of entry", async () => {
    const args = withBaselines();
    const before = await score(args);
    expect(before.cache).toBe("hit");
    expect(before.baselinesFromCache).toBe(1);
    const otherBuild = path.join(dir, "other-build.mjs");
    await writeFile(otherBuild, `${await readFile(BUNDLE, "utf8")}\n// another build\n`);
    const other = await score(args, otherBuild);
    expect(other.status).toBe(0);
    expect(other.cache).toBe("miss");
    expect(other.baselinesFromCache).toBe(0);
    expect(other.stdout).toBe(before.stdout);
    expect((await score(args, otherBuild)).baselinesFromCache).toBe(1);
    expect((await score(args)).baselinesFromCache).toBe(1);
  }, 120_000);

  it(`keeps the ${MAX_OUTCOME_ENTRIES} entries written last`, async () => {
    const store = await mkdtemp(path.join(tmpdir(), "score-cache-outcomes-size-"));
    try {
      const total = MAX_OUTCOME_ENTRIES + 2;
      for (let i = 0; i < total; i += 1) {
        await writeBaselineOutcomes(store, `key-${i}`, { track: "open", codes: Uint8Array.from([i % 5]) });
        // Distinct modification times for the first three (the kernel's clock for them is coarser than a write).
        if (i < 3) await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await readdir(store)).filter((name) => name.endsWith(".json"))).toHaveLength(MAX_OUTCOME_ENTRIES);
      expect(readBaselineOutcomes(store, "key-0")).toBeNull();
      expect(readBaselineOutcomes(store, "key-1")).toBeNull();
      expect(readBaselineOutcomes(store, "key-2")).toEqual({ track: "open", codes: Uint8Array.from([2]) });
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  });
});

describe("the release cache's size", () => {
  it(`keeps the ${MAX_CACHE_ENTRIES} entries written last`, async () => {
    const store = await mkdtemp(path.join(tmpdir(), "score-cache-size-"));
    try {
      const release = (i: number) => ({
        entities: [{ qid: `Q${i + 1}`, name: `Entity ${i}`, type: "Place" as const, aliases: [] }],
        samples: [{ id: `irc-${i}`, qid: `Q${i + 1}`, collection: "Veterans" }],
      });
      const total = MAX_CACHE_ENTRIES + 2;
      for (let i = 0; i < total; i += 1) {
        await writeReleaseCache(store, `key-${i}`, release(i));
        // Distinct modification times: the kernel's clock for them is coarser than a write.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect((await readdir(store)).filter((name) => name.endsWith(".json"))).toHaveLength(MAX_CACHE_ENTRIES);
      expect(await readReleaseCache(store, "key-0")).toBeNull();
      expect(await readReleaseCache(store, "key-1")).toBeNull();
      expect(await readReleaseCache(store, `key-${total - 1}`)).toEqual(release(total - 1));
      expect(await readReleaseCache(store, "key-2")).toEqual(release(2));
    } finally {
      await rm(store, { recursive: true, force: true });
    }
  });
});
