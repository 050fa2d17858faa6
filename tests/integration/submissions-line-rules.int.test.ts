import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { POST } from "@/app/api/submissions/route";
import { db } from "@/lib/platform/db";
import { getSharedRedis } from "@/lib/platform/redis";
import { importRelease } from "@/lib/domain/releases/import-release";
import { processSubmission } from "@/lib/domain/scoring/process-submission";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * The prediction-file line rules of protocol v1.1 section 4, through the real
 * upload route (POST /api/submissions, multipart, Bearer token): a line that
 * is not valid UTF-8, a lone surrogate in a string, a line over 64 KiB are
 * each named by line in a 422; any number of blank lines is accepted. And
 * scorer 1.1.0's whole-token containment on the demo release, server side.
 */
let release: TestRelease;
let participant: TestUser;
let token = "";

beforeAll(async () => {
  assertTestServices();
  await resetTestState();
  release = await importSmallRelease(7);
  participant = await createTestUser({ label: "line-rules", withoutPassword: true });
  ({ token } = await createApiToken({ actor: sessionActor(participant), name: "line rules" }));
});

afterAll(async () => {
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

type UploadResponse = {
  status: number;
  body: { id?: string; status?: string; error?: { code: string; message: string; problems?: { line?: number; message: string }[] } };
};

async function upload(content: Buffer, fields: Record<string, string> = {}): Promise<UploadResponse> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append("file", new Blob([new Uint8Array(content)], { type: "application/x-ndjson" }), "predictions.jsonl");
  const request = new Request("http://127.0.0.1:3100/api/submissions", {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
    body: form,
  });
  const response = await POST(request);
  return { status: response.status, body: (await response.json()) as UploadResponse["body"] };
}

function idOf(line: string): string {
  return (JSON.parse(line) as { id: string }).id;
}

const text = (lines: readonly string[]) => Buffer.from(`${lines.join("\n")}\n`, "utf8");

describe("upload of a file breaking a v1.1 line rule", () => {
  it("answers 422 naming each invalid line: not UTF-8, lone surrogates, over 64 KiB", async () => {
    const lines = predictionLines(release, "dev", "open", 0.4, 31);
    const content = Buffer.concat([
      text(lines.slice(0, 1)),
      // Line 2: 0xC3 0x28 is not UTF-8.
      Buffer.concat([Buffer.from(`{"id": "${idOf(lines[1] ?? "")}", "prediction": "`), Buffer.from([0xc3, 0x28]), Buffer.from('"}\n')]),
      // Lines 3 and 4: a lone surrogate in the id, then in the prediction.
      Buffer.from('{"id": "\\ud83d", "prediction": "a"}\n'),
      Buffer.from(`{"id": "${idOf(lines[3] ?? "")}", "prediction": "Pearl \\ud83d"}\n`),
      // Line 5: 65 KiB of prediction.
      text([JSON.stringify({ id: idOf(lines[4] ?? ""), prediction: "x".repeat(65 * 1024) })]),
      text(lines.slice(5)),
    ]);
    const { status, body } = await upload(content);
    expect(status).toBe(422);
    expect(body.error?.code).toBe("validation");
    const problems = body.error?.problems ?? [];
    const longBytes = 25 + idOf(lines[4] ?? "").length + 65 * 1024;
    expect(problems.slice(0, 4)).toEqual([
      { line: 2, message: "not valid UTF-8" },
      { line: 3, message: '"id" is not well-formed Unicode (lone surrogate)' },
      { line: 4, message: '"prediction" is not well-formed Unicode (lone surrogate)' },
      { line: 5, message: `line is longer than 64 KiB (${longBytes} bytes)` },
    ]);
    expect(problems[4]?.message).toMatch(/^3 samples of the dev split missing: /);
    expect(await db.submission.count({ where: { userId: participant.id } })).toBe(0);
  });

  it("answers 422 for a lone surrogate in a ranking entry", async () => {
    const lines = predictionLines(release, "dev", "closed", 0.4, 32);
    lines[2] = `{"id": "${idOf(lines[2] ?? "")}", "ranking": ["Q1", "\\udc00"]}`;
    const { status, body } = await upload(text(lines));
    expect(status).toBe(422);
    expect(body.error?.problems).toEqual([{ line: 3, message: '"ranking" entry 2 is not well-formed Unicode (lone surrogate)' }]);
  });

  it("names the bad lines even when no line of the file has a usable id, if the split is declared", async () => {
    const { status, body } = await upload(Buffer.from([0xc3, 0x28, 0x0a]), { split: "dev" });
    expect(status).toBe(422);
    expect(body.error?.problems?.[0]).toEqual({ line: 1, message: "not valid UTF-8" });
  });
});

describe("blank lines (section 4: ignored wherever they stand, however many)", () => {
  it("accepts 120 leading blank lines and more between and after the predictions", async () => {
    const lines = predictionLines(release, "dev", "open", 0.4, 33);
    const blanks = Array.from({ length: 120 }, (_, i) => (i % 2 === 0 ? "" : " \r"));
    const { status, body } = await upload(text([...blanks, ...lines.slice(0, 3), ...blanks, ...lines.slice(3), ...blanks]));
    expect(status).toBe(201);
    expect(body.status).toBe("QUEUED");
  });
});

describe("the single-letter answer file on the demo release (section 6, whole-token containment)", () => {
  it("scores 0 on containment on the dev and the test split, server side", async () => {
    const demo = await importRelease({ dir: path.resolve(__dirname, "../../data/demo-release"), activate: true });
    const samples = await db.sample.findMany({ where: { releaseId: demo.releaseId }, select: { sampleId: true, split: true } });
    for (const split of ["dev", "test"] as const) {
      const ids = samples.filter((sample) => sample.split === split).map((sample) => sample.sampleId);
      expect(ids.length).toBeGreaterThan(0);
      const { status, body } = await upload(text(ids.map((id) => JSON.stringify({ id, prediction: "e" }))), { split });
      expect(status).toBe(201);
      // The worker's own operation, in this process.
      expect(await processSubmission(body.id ?? "")).toBe("scored");
      const score = await db.score.findUniqueOrThrow({ where: { submissionId: body.id ?? "" } });
      // The row records platform scoring 1.3.0 (protocol v1.3); its report is the scorer's, 1.1.0 (section 6 rules).
      expect(score.scorerVersion).toBe("1.3.0");
      const report = score.report as { n: number; scorer_version: string; metrics: Record<string, number> };
      expect(report.scorer_version).toBe("1.1.0");
      expect(report.n).toBe(ids.length);
      expect(report.metrics).toMatchObject({ exact: 0, alias: 0, contain: 0, jaccard: 0 });
      // On the test split, both slices score 0 too.
      for (const slice of split === "test" ? [score.feedbackReport, score.rankingReport] : []) {
        expect((slice as { metrics: Record<string, number> }).metrics).toMatchObject({ exact: 0, alias: 0, contain: 0, jaccard: 0 });
      }
    }
  });
});
