/**
 * npm run leaderboard:seed -- [--database-url URL] [--entries N] [options]
 *
 * Seeds published synthetic entries (and baselines) into the test split of a
 * local database's active release, scored with the real lib/core/scoring code, for
 * benchmarks and browser tests. Exit 0 done, 1 refused or failed, 2 usage.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { integerOption, parseCommandLine } from "../command-line";
import { assertLocalDatabaseUrl } from "@/testing/local-database";
import { formatDecimal } from "@/lib/core/format/numbers";

const USAGE = `Usage: npm run leaderboard:seed -- [options]

  --database-url URL    the database to seed (default: $DATABASE_URL); must be local
  --entries N           published synthetic entries to add (default 20)
  --no-baselines        do not add the four synthetic baselines
  --reset               remove previously seeded entries first
  --remove              only remove previously seeded entries, then stop
  --create-release      import (and activate) a synthetic release even when one is active
  --release-dir DIR     import this release directory (activated) and seed into it
  --test-samples N      test samples of the synthetic release (default 600)
  --resamples N         bootstrap resamples per score (default 1000)
  --seed N              seed of the synthetic outcomes (default 7)
  --json                print one JSON summary line on stdout (messages go to stderr)
  --help                show this help

Seeded users have @leaderboard-seed.invalid addresses; --remove takes them and
everything they own away. REDIS_URL must be set as for every script
(source .data/services.env).`;

// eslint-disable-next-line max-lines-per-function -- a seeder's script, read top to bottom
async function main(): Promise<number> {
  const command = parseCommandLine({
    name: "npm run leaderboard:seed",
    usage: USAGE,
    options: {
      "database-url": { type: "string" },
      entries: { type: "string" },
      "no-baselines": { type: "boolean" },
      reset: { type: "boolean" },
      remove: { type: "boolean" },
      "create-release": { type: "boolean" },
      "release-dir": { type: "string" },
      "test-samples": { type: "string" },
      resamples: { type: "string" },
      seed: { type: "string" },
      json: { type: "boolean" },
    },
  });
  const { values } = command;
  const entries = integerOption(command, "entries", values.entries, { min: 0, fallback: 20 });
  const testSamples = integerOption(command, "test-samples", values["test-samples"], { min: 0, fallback: 600 });
  const resamples = integerOption(command, "resamples", values.resamples, { min: 0, fallback: 1000 });
  const seed = integerOption(command, "seed", values.seed, { min: 0, fallback: 7 });
  try {
    process.env.DATABASE_URL = assertLocalDatabaseUrl(values["database-url"] ?? process.env.DATABASE_URL);
  } catch (error) {
    return command.fail(error instanceof Error ? error.message : String(error));
  }

  // With --json, stdout carries the summary only.
  const say = (message: string) => (values.json ? console.error(message) : console.log(message));

  // The database modules read DATABASE_URL when they load: import them only now.
  const { db } = await import("@/lib/platform/db");
  const { importRelease } = await import("@/lib/domain/releases/import-release");
  const { removeSeededEntries, seedLeaderboardEntries } = await import("@/testing/leaderboard/seed-leaderboard-entries");
  const { synthesizeLeaderboardRelease, writeLeaderboardRelease } = await import("@/testing/leaderboard/synthetic-release");
  try {
    if (values.remove || values.reset) {
      const removed = await removeSeededEntries();
      say(`Removed ${removed} seeded user(s) and everything they owned.`);
      if (values.remove) return 0;
    }
    let releaseId: string;
    if (values["release-dir"]) {
      const imported = await importRelease({ dir: values["release-dir"], activate: true });
      releaseId = imported.releaseId;
      say(`Release ${imported.name} ${imported.version} (${imported.outcome}), active.`);
    } else {
      const active = values["create-release"] ? null : await db.datasetRelease.findFirst({ where: { isActive: true } });
      if (active) {
        releaseId = active.id;
        say(`Seeding the active release ${active.name} ${active.version}.`);
      } else {
        const dir = await mkdtemp(path.join(tmpdir(), "irc-leaderboard-release-"));
        try {
          const release = synthesizeLeaderboardRelease({ name: "irc-bench-leaderboard-synthetic", version: `1.0-n${testSamples}`, testSamples });
          await writeLeaderboardRelease(dir, release);
          const imported = await importRelease({ dir, activate: true });
          releaseId = imported.releaseId;
          say(`Release ${imported.name} ${imported.version} (${imported.outcome}), active.`);
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
      }
    }
    const started = performance.now();
    const result = await seedLeaderboardEntries({
      releaseId,
      entries,
      withBaselines: !values["no-baselines"],
      seed,
      resamples,
      onProgress: (done, total) => {
        if (done % 100 === 0 || done === total) process.stderr.write(`\r  scored ${done}/${total}`);
      },
    });
    process.stderr.write("\n");
    const release = await db.datasetRelease.findUniqueOrThrow({ where: { id: releaseId }, select: { name: true, version: true } });
    const seconds = (performance.now() - started) / 1000;
    if (values.json) {
      console.log(JSON.stringify({ release, ...result, seconds: Number(formatDecimal(seconds, 2)) }));
    } else {
      console.log(
        `Seeded ${result.entries} entries and ${result.baselines} baselines on ${result.samples} test samples of ` +
          `${release.name} ${release.version} (${result.comparisons} comparisons) in ${formatDecimal(seconds, 1)} s.`,
      );
    }
    return 0;
  } catch (error) {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  } finally {
    await db.$disconnect();
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
