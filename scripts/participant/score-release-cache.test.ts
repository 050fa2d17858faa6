import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { synthesizePredictions } from "@/testing/synthetic/synth-predictions";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { MAX_CACHE_ENTRIES, readReleaseCache, writeReleaseCache } from "./score-release-cache";

/**
 * The compiled scorer's release cache (scripts/score-release-cache.ts): a
 * run that reads a release from its cache prints what a run that reads and
 * validates it prints, and any change to a release file is a miss, never a
 * stale entry. Whether a run hit or missed is read from its phase lines
 * (IRC_BENCH_SCORE_TIMINGS=1).
 */

const ROOT = path.resolve(__dirname, "../..");
const BUILD = path.join(ROOT, "scripts", "build", "build-cli.mjs");
const BUNDLE = path.join(ROOT, "dist", "cli", "irc-bench-score.mjs");
const run = promisify(execFile);

type CliResult = { status: number; stdout: string; stderr: string; cache: "hit" | "miss" | "none" };

let dir = "";
let releaseDir = "";
let cacheDir = "";
const files = { closed: "", open: "", baseline: "" };

async function score(args: readonly string[]): Promise<CliResult> {
  const env = { ...process.env, IRC_BENCH_CACHE_DIR: cacheDir, IRC_BENCH_SCORE_TIMINGS: "1" };
  let result: Omit<CliResult, "cache">;
  try {
    const { stdout, stderr } = await run(process.execPath, [BUNDLE, ...args], { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 });
    result = { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    result = { status: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
  const cache = /release cache: .*, hit/.test(result.stderr) ? "hit" : /release cache: .*, miss/.test(result.stderr) ? "miss" : "none";
  return { ...result, cache };
}

const cacheEntries = async () => (await readdir(cacheDir)).filter((name) => name.endsWith(".json"));

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
