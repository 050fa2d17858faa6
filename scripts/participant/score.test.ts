import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { synthesizePredictions } from "@/testing/synthetic/synth-predictions";
import { synthesizeRelease, writeRelease } from "@/testing/synthetic/synth-release";
import { scoreReportSchema } from "@/lib/core/scoring/report-schema";

/**
 * Runs the real, compiled CLI on a small synthetic release: what `npm run
 * score` runs (scripts/participant/run-score.mjs, which rebuilds dist/cli/irc-bench-score.mjs
 * when its sources changed, then runs it), and the same single file copied
 * alone to a folder without node_modules, as a participant downloads it.
 * Exit statuses, the one-object JSON output and the FILE:LINE problem lines
 * of protocol section 11.
 */

const ROOT = path.resolve(__dirname, "../..");
const LAUNCHER = path.join(ROOT, "scripts", "participant", "run-score.mjs");
const BUILD = path.join(ROOT, "scripts", "build", "build-cli.mjs");
const BUNDLE = path.join(ROOT, "dist", "cli", "irc-bench-score.mjs");
const run = promisify(execFile);

type CliResult = { status: number; stdout: string; stderr: string };

async function runCli(command: string, args: readonly string[], cwd = ROOT): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(command, [...args], { cwd, env: { ...process.env, NODE_PATH: "" } });
    return { status: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { status: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

async function score(args: readonly string[]): Promise<CliResult> {
  return runCli(process.execPath, [LAUNCHER, ...args]);
}

let dir = "";
let releaseDir = "";
let publicDir = "";
const files = { open: "", closed: "", invalid: "", invalidV11: "", invalidRanking: "", unknownQid: "", blankLead: "" };
let devSize = 0;
let devIds: string[] = [];

beforeAll(async () => {
  // Build once up front (a no-op when fresh), so the tests below do not race to rebuild.
  await run(process.execPath, [BUILD, "--if-stale"], { cwd: ROOT });
  dir = await mkdtemp(path.join(tmpdir(), "score-cli-"));
  const release = synthesizeRelease({ seed: 7, size: "small" });
  devSize = release.samples.dev.length;
  devIds = release.samples.dev.map((sample) => sample.id);
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

  // Protocol v1.1 section 4, on lines 2 to 5 of an otherwise valid file (their samples then go missing):
  // invalid UTF-8 (0xC3 0x28), a lone surrogate in the id and in the prediction, a 65 KiB line.
  const idAt = (index: number) => release.samples.dev[index]?.id ?? "";
  files.invalidV11 = path.join(dir, "invalid-v11.jsonl");
  const badUtf8 = Buffer.concat([Buffer.from(`{"id": "${idAt(1)}", "prediction": "`), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]);
  const longLine = JSON.stringify({ id: idAt(4), prediction: "x".repeat(65 * 1024) });
  await writeFile(
    files.invalidV11,
    Buffer.concat([
      Buffer.from(`${open[0]}\n`),
      badUtf8,
      Buffer.from(`\n{"id": "\\ud83d", "prediction": "a"}\n{"id": "${idAt(3)}", "prediction": "Pearl \\ud83d"}\n${longLine}\n`),
      Buffer.from(`${open.slice(5).join("\n")}\n`),
    ]),
  );
  files.invalidRanking = path.join(dir, "invalid-ranking.jsonl");
  const closedLines = predictionsOf("closed", 3);
  closedLines[0] = `{"id": "${idAt(0)}", "ranking": ["Q1", "\\ud83d"]}`;
  await writeFile(files.invalidRanking, `${closedLines.join("\n")}\n`);
  // Simple enough for the byte scanner's parse; only the KB check refuses it.
  files.unknownQid = path.join(dir, "unknown-qid.jsonl");
  const unknownLines = predictionsOf("closed", 4);
  unknownLines[1] = `{"id": "${idAt(1)}", "ranking": ["Q999999999"]}`;
  await writeFile(files.unknownQid, `${unknownLines.join("\n")}\n`);
  // 120 blank lines (some CRLF, some white space) before the first prediction.
  files.blankLead = path.join(dir, "blank-lead.jsonl");
  const blanks = Array.from({ length: 120 }, (_, i) => (i % 3 === 0 ? "\r" : i % 3 === 1 ? "" : "  "));
  await writeFile(files.blankLead, `${[...blanks, ...open].join("\n")}\n`);
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

  it("keeps the baselines in argument order when worker threads check them", async () => {
    const args = ["--release", releaseDir, "--split", "dev", "--predictions", files.open, "--json"];
    const baselines = [files.closed, files.open, files.blankLead, files.closed];
    const result = await score([...args, ...baselines.flatMap((file) => ["--baseline", file])]);
    expect(result.status).toBe(0);
    const report = scoreReportSchema.parse(JSON.parse(result.stdout));
    expect(report.comparisons.map((comparison) => comparison.baseline)).toEqual(baselines);
    const invalid = await score([...args, "--baseline", files.closed, "--baseline", files.invalid, "--baseline", files.invalidRanking, "--baseline", files.unknownQid]);
    expect(invalid.status).toBe(1);
    const lines = invalid.stderr.trim().split("\n");
    expect(lines.map((line) => line.slice(0, line.indexOf(":")))).toEqual([files.invalid, files.invalid, files.invalidRanking, files.unknownQid]);
    expect(lines[3]).toMatch(new RegExp(`^${files.unknownQid}:2: .*Q999999999`));
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

  it("names each v1.1 invalid line (UTF-8, lone surrogate, over 64 KiB) as FILE:LINE: message and exits 1", async () => {
    const result = await score(["--release", releaseDir, "--split", "dev", "--predictions", files.invalidV11]);
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    const lines = result.stderr.trim().split("\n");
    // {"id":"…","prediction":"xxx…"}: 25 bytes of JSON, the id, 65 KiB of x's.
    const longBytes = 25 + (devIds[4]?.length ?? 0) + 65 * 1024;
    expect(lines.slice(0, 4)).toEqual([
      `${files.invalidV11}:2: not valid UTF-8`,
      `${files.invalidV11}:3: "id" is not well-formed Unicode (lone surrogate)`,
      `${files.invalidV11}:4: "prediction" is not well-formed Unicode (lone surrogate)`,
      `${files.invalidV11}:5: line is longer than 64 KiB (${longBytes} bytes)`,
    ]);
    // Lines 2, 3 and 5 name no sample; line 4's id is well-formed and counts as seen.
    expect(lines[4]).toBe(`${files.invalidV11}: 3 samples of the dev split missing: "${devIds[1]}", "${devIds[2]}", "${devIds[4]}"`);
    expect(lines).toHaveLength(5);
  }, 30_000);

  it("names a lone surrogate in a ranking entry", async () => {
    const result = await score(["--release", releaseDir, "--split", "dev", "--predictions", files.invalidRanking]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toEqual([
      `${files.invalidRanking}:1: "ranking" entry 2 is not well-formed Unicode (lone surrogate)`,
    ]);
  }, 30_000);

  it("accepts 120 leading blank lines and scores the file as without them", async () => {
    const withBlanks = await score(["--release", releaseDir, "--split", "dev", "--predictions", files.blankLead, "--json"]);
    const without = await score(["--release", releaseDir, "--split", "dev", "--predictions", files.open, "--json"]);
    expect(withBlanks.status).toBe(0);
    expect(withBlanks.stdout).toBe(without.stdout);
  }, 30_000);

  it("scores the single-letter answer file (every prediction \"e\") 0 on containment on the demo release", async () => {
    const demo = path.join(ROOT, "data", "demo-release");
    const demoIds = (await readFile(path.join(demo, "dev.jsonl"), "utf8"))
      .split("\n")
      .filter((line) => line.trim() !== "")
      .map((line) => (JSON.parse(line) as { id: string }).id);
    const file = path.join(dir, "single-letter.jsonl");
    await writeFile(file, `${demoIds.map((id) => JSON.stringify({ id, prediction: "e" })).join("\n")}\n`);
    const result = await score(["--release", demo, "--split", "dev", "--predictions", file, "--json"]);
    expect(result.status).toBe(0);
    const report = scoreReportSchema.parse(JSON.parse(result.stdout));
    expect(report.n).toBe(demoIds.length);
    expect(report.scorer_version).toBe("1.1.0");
    // No demo gold name is the single token "e": nothing exact, alias or contained; jaccard needs a shared token.
    expect(report.metrics).toMatchObject({ exact: 0, alias: 0, contain: 0, jaccard: 0 });
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

  it("finds the site's download names (RELEASE-VERSION-dev.jsonl, -kb.jsonl) in a participant's folder", async () => {
    const downloads = path.join(dir, "site-names");
    await writeRelease(downloads, synthesizeRelease({ seed: 7, size: "small" }));
    await rm(path.join(downloads, "dataset.json"));
    await rename(path.join(downloads, "dev.jsonl"), path.join(downloads, "irc-bench-demo-1.0-dev.jsonl"));
    await rename(path.join(downloads, "kb.jsonl"), path.join(downloads, "irc-bench-demo-1.0-kb.jsonl"));
    const fromRelease = await score(["--release", releaseDir, "--split", "dev", "--predictions", files.open, "--json"]);
    const fromDownloads = await score(["--release", downloads, "--split", "dev", "--predictions", files.open, "--json"]);
    expect(fromDownloads.status).toBe(0);
    expect(fromDownloads.stdout).toBe(fromRelease.stdout);
  }, 30_000);

  it("names what it looked for when the folder has no dev file, and exits 2", async () => {
    const empty = path.join(dir, "no-dev");
    await mkdir(empty, { recursive: true });
    await copyFile(path.join(releaseDir, "kb.jsonl"), path.join(empty, "irc-bench-demo-1.0-kb.jsonl"));
    const result = await score(["--release", empty, "--split", "dev", "--predictions", files.open]);
    expect(result.status).toBe(2);
    expect(result.stderr.trim().split("\n")).toEqual([
      `The release in ${empty} cannot be used:`,
      `${path.join(empty, "dev.jsonl")}: missing file: looked for dev.jsonl or a site download named *-dev.jsonl (such as irc-bench-demo-1.0-dev.jsonl)`,
    ]);
  }, 30_000);

  it("runs as one downloaded file with plain node, no node_modules, and prints what npm run score prints", async () => {
    const alone = await mkdtemp(path.join(tmpdir(), "score-alone-"));
    try {
      await copyFile(BUNDLE, path.join(alone, "irc-bench-score.mjs"));
      const folder = path.join(alone, "FOLDER");
      await mkdir(folder);
      await copyFile(path.join(releaseDir, "dev.jsonl"), path.join(folder, "irc-bench-demo-1.0-dev.jsonl"));
      await copyFile(path.join(releaseDir, "kb.jsonl"), path.join(folder, "irc-bench-demo-1.0-kb.jsonl"));
      await copyFile(files.open, path.join(alone, "preds.jsonl"));
      await copyFile(files.closed, path.join(alone, "baseline.jsonl"));
      // Absolute paths: npm runs scripts from the package root, and the baseline's path is in the report.
      const args = ["--release", folder, "--split", "dev", "--predictions", path.join(alone, "preds.jsonl"), "--baseline", path.join(alone, "baseline.jsonl"), "--json"];
      const standalone = await runCli(process.execPath, ["irc-bench-score.mjs", ...args], alone);
      const viaNpm = await runCli("npm", ["run", "--silent", "score", "--", ...args]);
      expect(standalone.stderr).toBe("");
      expect(standalone.status).toBe(0);
      expect(viaNpm.status).toBe(0);
      expect(standalone.stdout).toBe(viaNpm.stdout);
      expect(scoreReportSchema.parse(JSON.parse(standalone.stdout)).n).toBe(devSize);
    } finally {
      await rm(alone, { recursive: true, force: true });
    }
  }, 60_000);
});
