import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { synthesizePredictions } from "@/lib/dataset/synth-predictions";
import { synthesizeRelease, writeRelease } from "@/lib/dataset/synth-release";
import { scoreReportSchema } from "@/lib/scoring/report-schema";

/**
 * Runs the real CLI (scripts/score.ts through tsx) on a small synthetic
 * release: exit statuses, the one-object JSON output and the FILE:LINE
 * problem lines of protocol section 11.
 */

const ROOT = path.resolve(__dirname, "..");
const TSX = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
const run = promisify(execFile);

type CliResult = { status: number; stdout: string; stderr: string };

async function score(args: readonly string[]): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [TSX, "scripts/score.ts", ...args], { cwd: ROOT });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { status: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

let dir = "";
let releaseDir = "";
let publicDir = "";
const files = { open: "", closed: "", invalid: "" };
let devSize = 0;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "score-cli-"));
  const release = synthesizeRelease({ seed: 7, size: "small" });
  devSize = release.samples.dev.length;
  releaseDir = path.join(dir, "release");
  await writeRelease(releaseDir, release);
  // The participants' test file: no qid.
  publicDir = path.join(dir, "public");
  await writeRelease(publicDir, release);
  const publicTest = release.samples.test.map(({ id, collection, implicit_text }) => JSON.stringify({ id, collection, implicit_text }));
  await writeFile(path.join(publicDir, "test.jsonl"), `${publicTest.join("\n")}\n`);

  const predictionsOf = (track: "open" | "closed", seed: number) =>
    synthesizePredictions({ samples: release.samples.dev, entities: release.entities, track, accuracy: 0.4, seed, rankingLength: 20 });
  files.open = path.join(dir, "open.jsonl");
  files.closed = path.join(dir, "closed.jsonl");
  files.invalid = path.join(dir, "invalid.jsonl");
  const open = predictionsOf("open", 1);
  await writeFile(files.open, `${open.join("\n")}\n`);
  await writeFile(files.closed, `${predictionsOf("closed", 2).join("\n")}\n`);
  // Line 3 repeats line 1; line 4 is not JSON.
  await writeFile(files.invalid, [open[0], open[1], open[0], "{oops", ...open.slice(2)].join("\n"));
}, 60_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("npm run score (protocol section 11)", () => {
  it("prints exactly one JSON report and exits 0", async () => {
    const result = await score([
      "--release", releaseDir, "--split", "dev", "--predictions", files.open,
      "--baseline", files.closed, "--json",
    ]);
    expect(result.status).toBe(0);
    const report = scoreReportSchema.parse(JSON.parse(result.stdout));
    expect(report.track).toBe("open");
    expect(report.n).toBe(devSize);
    expect(report.comparisons).toHaveLength(1);
    expect(report.comparisons[0]?.baseline).toBe(files.closed);
    expect(report.comparisons[0]?.metric).toBe("unified");
  }, 30_000);

  it("lists the problems of an invalid file as FILE:LINE: message and exits 1", async () => {
    const result = await score(["--release", releaseDir, "--split", "dev", "--predictions", files.invalid]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    expect(lines[0]).toMatch(new RegExp(`^${files.invalid}:3: duplicate id "[^"]+" \\(first seen on line 1\\)$`));
    expect(lines[1]).toMatch(new RegExp(`^${files.invalid}:4: invalid JSON: `));
    expect(lines).toHaveLength(2);
  }, 30_000);

  it("exits 2 on a usage error", async () => {
    const result = await score(["--release", releaseDir, "--split", "dev"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("--predictions FILE is required");
  }, 30_000);

  it("explains that the public test split has no gold and exits 2", async () => {
    const result = await score(["--release", publicDir, "--split", "test", "--predictions", files.open]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('carry no "qid"');
  }, 30_000);

  it("scores a participant's folder of downloads (dev.jsonl and kb.jsonl, no dataset.json) like the release", async () => {
    const downloads = path.join(dir, "downloads");
    await writeRelease(downloads, synthesizeRelease({ seed: 7, size: "small" }));
    await rm(path.join(downloads, "dataset.json"));
    const fromRelease = await score(["--release", releaseDir, "--split", "dev", "--predictions", files.open, "--json"]);
    const fromDownloads = await score(["--release", downloads, "--split", "dev", "--predictions", files.open, "--json"]);
    expect(fromDownloads.status).toBe(0);
    expect(fromDownloads.stdout).toBe(fromRelease.stdout);
  }, 30_000);
});
