import { describe, expect, it } from "vitest";
import type { SubmissionViewBody } from "@/lib/core/api-schemas/submissions";
import { formatDuration } from "@/lib/core/format/dates";
import { formatMetric } from "@/lib/core/format/numbers";
import { describeRetryAfter, describeWaitDetail, formatProblems, formatQuota, formatSubmission, formatSubmissionList, formatTable } from "./format";

describe("client formatting", () => {
  it("writes rates as percentages with one decimal and MRR as a fraction", () => {
    expect(formatMetric("alias", 0.41666)).toBe("41.7%");
    expect(formatMetric("hit@1", 1)).toBe("100.0%");
    expect(formatMetric("mrr", 0.5)).toBe("0.500");
    expect(formatMetric("alias", null)).toBe("-");
  });

  it("writes durations in s, min and h", () => {
    expect(formatDuration(0.4)).toBe("0 s");
    expect(formatDuration(59)).toBe("59 s");
    expect(formatDuration(60)).toBe("1 min");
    expect(formatDuration(185)).toBe("3 min 5 s");
    expect(formatDuration(2 * 3600 + 10 * 60 + 9)).toBe("2 h 10 min");
    expect(formatDuration(7200)).toBe("2 h");
  });

  it("says when a refused test submission frees, or when another limit lets one try again, from Retry-After", () => {
    const now = new Date("2026-12-01T18:04:30Z");
    expect(describeRetryAfter(3 * 3600 + 125, now, "test")).toBe(
      "The next test submission is free at 2026-12-01 21:06 UTC (in 3 h 2 min). Dev submissions cost no test quota.",
    );
    expect(describeRetryAfter(600, now, "other")).toBe("Try again at 2026-12-01 18:14 UTC (in 10 min).");
  });

  it("aligns tables column by column, left or right", () => {
    expect(formatTable(["metric", "value"], [["alias", "5.0%"], ["hit@10", "45.0%"]], "lr")).toBe("metric  value\nalias    5.0%\nhit@10  45.0%");
  });

  it("prints upload problems as FILE:LINE: message, then the server's summary", () => {
    expect(formatProblems("p.jsonl", "The file was rejected with 2 problem(s).", [{ line: 3, message: "duplicate id a" }, { message: "... and 1 more problem" }])).toEqual([
      "p.jsonl:3: duplicate id a",
      "p.jsonl: ... and 1 more problem",
      "p.jsonl: The file was rejected with 2 problem(s).",
    ]);
  });

  it("shows the test quota and, when the day's are used, when the next one frees; then the dev limits the server reports", () => {
    const dev = { perHour: 30, usedLastHour: 30, nextFreeAt: "2026-12-02T08:41:00.000Z", bytesPerDay: 512 * 1024 * 1024, bytesUsedToday: 3 * 1024 * 1024 + 512 * 1024 };
    const quota = { perDay: 5, total: 50, usedToday: 5, usedTotal: 7, remaining: 0, nextFreeAt: "2026-12-02T09:00:00.000Z", dev };
    expect(formatQuota(quota, new Date("2026-12-02T08:30:00Z"))).toBe(
      [
        "Test submissions left: 0",
        "  last 24 hours: 5 of 5 used",
        "  this release:  7 of 50 used",
        "The next one is free at 2026-12-02 09:00 UTC (in 30 min).",
        "Dev submissions cost no test quota, but are limited:",
        "  last hour:     30 of 30 uploads",
        "  last 24 hours: 3.5 MiB of 512 MiB stored",
        "The next dev upload is possible at 2026-12-02 08:41 UTC (in 11 min).",
        "",
      ].join("\n"),
    );
  });

  it("lists submissions with the primary metric of their track, a queued one's place in the queue, a pending publication, and a missing worker", () => {
    const rows = [
      { id: "c2", originalName: "b.jsonl", split: "test", track: "closed", status: "SCORED", publication: "PENDING", isPrimary: false, createdAt: "2026-12-01T10:05:00.000Z", primary: 0.123, failureKind: null, note: "" },
      { id: "c1", originalName: "a.jsonl", split: "dev", track: "open", status: "QUEUED", publication: "PRIVATE", isPrimary: false, createdAt: "2026-12-01T09:00:00.000Z", primary: null, failureKind: null, note: "" },
    ];
    const text = formatSubmissionList(rows, new Map([["c1", { position: 2, waiting: 5, beingScored: 1 }]]), { workersAlive: 0 });
    expect(text).toBe(
      [
        "id  uploaded              split  track   status           publication  primary  file",
        "c2  2026-12-01 10:05 UTC  test   closed  SCORED           pending        12.3%  b.jsonl",
        "c1  2026-12-01 09:00 UTC  dev    open    QUEUED (2 of 5)  -                  -  a.jsonl",
        "",
        "QUEUED (n of m): place n among the m jobs waiting for a worker (1 is next).",
        "",
        "pending: publication requested, not yet reviewed by a maintainer.",
        "",
        "No scoring worker is alive on the server: queued submissions wait until the operators start one.",
        "",
      ].join("\n"),
    );
    expect(formatSubmissionList(rows.slice(0, 1), new Map(), { workersAlive: 0 })).not.toContain("No scoring worker");
  });

  it("prints a scored submission's metrics with intervals, its types and its verdicts, an unpublished test file's labelled as the feedback slice's estimate with its n", () => {
    const view: SubmissionViewBody = {
      id: "cs1", ownerName: "Ada", isViewerOwner: true, status: "SCORED", split: "test", track: "open", originalName: "t.jsonl", fileBytes: 2048,
      fileSha256: "0".repeat(64), sampleCount: 232, createdAt: "2026-12-01T10:00:00.000Z", startedAt: "2026-12-01T10:00:01.000Z",
      finishedAt: "2026-12-01T10:00:03.000Z", attempts: 1, failureKind: null, failureReason: null, quota: { state: "charged", reason: null }, isBaseline: false,
      baselineLabel: null, publication: "PRIVATE", isPrimary: false, hiddenByOwner: false, systemName: null, methodDescription: null, factSheet: null, factSheetMissing: [],
      canEditFactSheet: false, provenance: { tier: "scored", reproducedAt: null, reproducedBy: null }, reviewReason: null, identicalPublicEntry: null, releaseName: "demo 1.0", feedbackFraction: 0.25, disclosureLevel: "owner",
      score: {
        report: {
          scorer_version: "1.1.0", split: "test", track: "open", n: 232,
          metrics: { exact: 0.25, alias: 0.5 }, ci95: { exact: [0.2, 0.3], alias: [0.45, 0.551] },
          by_type: null, by_collection: null, disclosure: { level: "owner", min_group_n: null, coarse_below_n: null },
        },
        scorerVersion: "1.1.0", goldVersion: "g1", computedAt: "2026-12-01T10:00:03.000Z", isStale: false,
      },
      comparisons: [
        { kind: "verdict", baselineId: "b1", baselineLabel: "BM25", family: "track", identicalTo: null, metric: "alias", verdict: "better", pHolmBucket: "< 0.01" },
        { kind: "verdict", baselineId: "b2", baselineLabel: "Prior", family: "unified", identicalTo: null, metric: "unified", verdict: "worse", pHolmBucket: "< 0.05" },
      ],
      hasSampleOutcomes: false, visibility: { isPublic: false, text: "Private" }, queuePosition: null, pageUrl: "https://bench.example/submissions/cs1",
    };
    expect(formatSubmission(view, { workersAlive: null })).toBe(
      [
        "Submission cs1: test split, open-world track, 232 samples, SCORED in 3 s",
        "File: t.jsonl (2 KiB), demo 1.0",
        "Test quota: charged.",
        "",
        "Feedback estimate on the feedback slice, n = 232: not the numbers the leaderboard uses (rounded; each 95% interval from the shown value and n alone):",
        "metric           value        95% CI",
        "exact            25.0%  [20.0, 30.0]",
        "alias (primary)  50.0%  [45.0, 55.1]",
        "",
        "Feedback estimate against the baselines, on the feedback slice (McNemar, Holm-adjusted):",
        "baseline",
        "BM25      better  Holm p < 0.01",
        "",
        "Test split: overall numbers of the feedback slice only, rounded to 0.1 point, until the entry is published; the leaderboard shows the ranking slice's (protocol section 12).",
        "",
        "Page: https://bench.example/submissions/cs1",
        "",
      ].join("\n"),
    );
  });
});

describe("a waiting submission", () => {
  const waiting = (overrides: Partial<SubmissionViewBody>): SubmissionViewBody =>
    ({
      id: "q1", ownerName: "Ada", isViewerOwner: true, status: "QUEUED", split: "test", track: "open", originalName: "t.jsonl", fileBytes: 100,
      fileSha256: "0".repeat(64), sampleCount: 232, createdAt: "2026-12-01T10:00:00.000Z", startedAt: null, finishedAt: null, attempts: 0,
      failureKind: null, failureReason: null, quota: { state: "charged", reason: null }, isBaseline: false, baselineLabel: null, publication: "PRIVATE", isPrimary: false,
      hiddenByOwner: false, systemName: null, methodDescription: null, factSheet: null, factSheetMissing: [], canEditFactSheet: false,
      provenance: { tier: "scored", reproducedAt: null, reproducedBy: null }, reviewReason: null, identicalPublicEntry: null, releaseName: "demo 1.0", feedbackFraction: 0.25, disclosureLevel: "owner",
      score: null, comparisons: [], hasSampleOutcomes: false, visibility: { isPublic: false, text: "Private" },
      queuePosition: { position: 3, waiting: 4, beingScored: 2 }, pageUrl: "https://bench.example/submissions/q1", ...overrides,
    }) satisfies SubmissionViewBody;

  it("shows its place in the queue and says when no worker is alive", () => {
    expect(formatSubmission(waiting({}), { workersAlive: 0 })).toBe(
      [
        "Submission q1: test split, open-world track, 232 samples, QUEUED",
        "File: t.jsonl (100 B), demo 1.0",
        "Test quota: charged.",
        "Queue: 3 of 4 in the queue, 2 being scored now.",
        "No scoring worker is alive on the server: the submission waits until the operators start one.",
        "",
        "Page: https://bench.example/submissions/q1",
        "",
      ].join("\n"),
    );
    expect(formatSubmission(waiting({}), { workersAlive: 1 })).not.toContain("No scoring worker");
    expect(describeWaitDetail(waiting({}), { workersAlive: 0 })).toBe("3 of 4 in the queue, 2 being scored now, no scoring worker is alive on the server");
    expect(describeWaitDetail(waiting({ status: "SCORING", queuePosition: null }), { workersAlive: 2 })).toBeNull();
  });

  it("says what the submission cost the test quota, from the ledger: a refund with its reason, nothing for a free file", () => {
    const failed = waiting({ status: "FAILED", queuePosition: null, failureKind: "INTERNAL", failureReason: "The store did not answer.", quota: { state: "refunded", reason: "Scoring failed on the platform's side" } });
    expect(formatSubmission(failed, { workersAlive: null })).toContain("\nTest quota: refunded (Scoring failed on the platform's side).\n");
    expect(formatSubmission(waiting({ split: "dev", quota: { state: "free", reason: null } }), { workersAlive: null })).not.toContain("Test quota");
  });

  it("names a pending or rejected publication", () => {
    expect(formatSubmission(waiting({ status: "SCORED", queuePosition: null, publication: "PENDING" }), { workersAlive: null })).toContain(
      "Publication: requested; a maintainer has not reviewed it yet.",
    );
    expect(formatSubmission(waiting({ status: "SCORED", queuePosition: null, publication: "REJECTED", reviewReason: "no fact sheet answers" }), { workersAlive: null })).toContain(
      "Publication: rejected by a maintainer: no fact sheet answers",
    );
  });

  it("tells the owner a file is another account's public entry, byte for byte", () => {
    const copy = waiting({ status: "SCORED", queuePosition: null, identicalPublicEntry: { id: "e1", system: "Dense Ranker", isBaseline: false } });
    expect(formatSubmission(copy, { workersAlive: 1 })).toContain(
      'This file is identical, byte for byte, to the public entry "Dense Ranker": its scores are that entry\'s, already public.',
    );
    expect(formatSubmission(waiting({ status: "SCORED", queuePosition: null }), { workersAlive: 1 })).not.toContain("identical");
  });
});
