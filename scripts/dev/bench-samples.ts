/**
 * npm run bench:samples [-- --runs 50]
 *
 * The instance browser on the full-size synthetic dev split (2,532 samples,
 * KB 12,337): an open-world and a closed-world dev run are scored by the
 * worker's code (which stores their per-sample classes and answers), then
 * `GET /api/submissions/ID/samples` is called `runs` times per query through
 * its route handler with an API token (token lookup, submission row, filters,
 * JSON body), no HTTP server in between. Prints the first (cold) request and
 * p50 / p95 of the rest per query, as a markdown table. Uses its own local
 * database (irc_bench_samples), Redis database 8 and a temporary file store.
 * Asserts nothing.
 */
import { rm } from "node:fs/promises";
import { Readable } from "node:stream";
import { integerOption, parseCommandLine } from "../command-line";
import { formatDecimal } from "@/lib/core/format/numbers";
import { isolateBenchServices, percentile, resetWithSyntheticRelease } from "./bench-support";

async function main(): Promise<void> {
  const command = parseCommandLine({
    name: "npm run bench:samples",
    usage: "Usage: npm run bench:samples [-- --runs N]\nTimes GET /api/submissions/ID/samples on the full-size dev split, N requests per query after the first (default 50).",
    options: { runs: { type: "string" } },
  });
  const runs = integerOption(command, "runs", command.values.runs, { min: 1, fallback: 50 });
  const { store } = await isolateBenchServices("samples", 8);

  const { db } = await import("@/lib/platform/db");
  const { getSharedRedis } = await import("@/lib/platform/redis");
  const { synthesizePredictions } = await import("@/testing/synthetic/synth-predictions");
  const { createSubmission } = await import("@/lib/domain/uploads/create-submission");
  const { stageUpload } = await import("@/lib/platform/files/staging");
  const { processSubmission } = await import("@/lib/domain/scoring/process-submission");
  const { getScoringQueue } = await import("@/lib/platform/queue/scoring-queue");
  const { createApiToken } = await import("@/lib/domain/accounts/create-api-token");
  const { getEnv } = await import("@/lib/platform/env");
  const { GET } = await import("@/app/api/submissions/[id]/samples/route");

  try {
    const { release } = await resetWithSyntheticRelease(store);
    const user = await db.user.create({ data: { email: "bench-samples@irc-bench.invalid", displayName: "Bench" } });
    const { token } = await createApiToken({ actor: { kind: "user", userId: user.id, role: "PARTICIPANT", displayName: "Bench", via: "session" }, name: "bench" });

    const submit = async (track: "open" | "closed", accuracy: number, seed: number) => {
      const lines = synthesizePredictions({ samples: release.samples.dev, entities: release.entities, track, accuracy, seed, rankingLength: 100 });
      const staged = await stageUpload(Readable.from([Buffer.from(`${lines.join("\n")}\n`)]), getEnv().UPLOAD_MAX_BYTES);
      const submission = await createSubmission({ userId: user.id, staged, originalName: `dev-${track}-${seed}.jsonl`, isQuotaExempt: true });
      await processSubmission(submission.id);
      return submission.id;
    };
    const [openOld, openNew, closed] = [await submit("open", 0.4, 1), await submit("open", 0.45, 2), await submit("closed", 0.35, 3)];
    console.log(`\nscored: dev split of ${release.samples.dev.length} samples, KB ${release.entities.length}; ${runs} requests per query after the first\n`);

    const queries: { label: string; id: string; search: string }[] = [
      { label: "open, page 1 of 50", id: openNew, search: "" },
      { label: "open, Person + wrong type", id: openNew, search: "type=Person&class=wrong_type" },
      { label: "open, search 'the' in narrative/answer/gold", id: openNew, search: "q=the" },
      { label: "open, sorted by class desc, 500 rows", id: openNew, search: "sort=class&dir=desc&pageSize=500" },
      { label: "open, against another run, broken only", id: openNew, search: `against=${openOld}&change=broken` },
      { label: "closed, rank 2-3, top 5 with names", id: closed, search: "bucket=2-3" },
      { label: "closed, all rows as CSV (export)", id: closed, search: "format=csv" },
    ];
    console.log("| query | rows matched | first (cold) ms | p50 ms | p95 ms |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    for (const query of queries) {
      const call = async () => {
        const started = performance.now();
        const response = await GET(new Request(`http://localhost/api/submissions/${query.id}/samples?${query.search}`, { headers: { authorization: `Bearer ${token}` } }), {
          params: Promise.resolve({ id: query.id }),
        });
        const body = await response.text();
        if (response.status !== 200) throw new Error(`${query.label}: HTTP ${response.status} ${body.slice(0, 200)}`);
        return { ms: performance.now() - started, body };
      };
      const first = await call();
      const times: number[] = [];
      for (let i = 0; i < runs; i += 1) times.push((await call()).ms);
      const matched = first.body.startsWith("{") ? (JSON.parse(first.body) as { total: number }).total : first.body.trimEnd().split("\r\n").length - 1;
      console.log(`| ${query.label} | ${matched} | ${formatDecimal(first.ms, 0)} | ${formatDecimal(percentile(times, 0.5), 1)} | ${formatDecimal(percentile(times, 0.95), 1)} |`);
    }
  } finally {
    await getScoringQueue().close();
    await getSharedRedis().quit();
    await db.$disconnect();
    await rm(store, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
