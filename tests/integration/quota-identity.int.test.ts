import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// lib/platform/env.ts caches the environment on first use: the limits are set before any lib import runs.
// TEST_REQUIRES_APPROVAL is unset, so it is "auto" (on for releases of 1,000 test samples or more).
const previous = vi.hoisted(() => {
  const names = ["TEST_QUOTA_PER_DAY", "TEST_QUOTA_TOTAL", "TEST_REQUIRES_APPROVAL", "NEXTAUTH_SECRET", "NEXTAUTH_URL", "TRUSTED_PROXY_HOPS"] as const;
  const saved = Object.fromEntries(names.map((name) => [name, process.env[name]]));
  process.env.TEST_QUOTA_PER_DAY = "2";
  process.env.TEST_QUOTA_TOTAL = "4";
  delete process.env.TEST_REQUIRES_APPROVAL;
  delete process.env.TRUSTED_PROXY_HOPS;
  process.env.NEXTAUTH_SECRET = "integration-test-secret-0123456789";
  process.env.NEXTAUTH_URL = "http://127.0.0.1:3100";
  return saved;
});

import { POST as postQuotaAdjustment } from "@/app/api/admin/users/[id]/quota/route";
import { GET as getLedger } from "@/app/api/quota/ledger/route";
import { POST as postSubmission } from "@/app/api/submissions/route";
import { GET as getSubmission } from "@/app/api/submissions/[id]/route";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { AppError, toHttpStatus } from "@/lib/core/errors";
import type { QuotaLedgerBody, SubmissionViewBody } from "@/lib/core/api-schemas/submissions";
import { AUTH_RATE_LIMITS } from "@/lib/domain/accounts/auth-limits";
import { getSharedRedis } from "@/lib/platform/redis";
import { SOCKET_ADDRESS_HEADER } from "@/lib/platform/rate-limit/socket-address";
import { markSubmissionFailed, processSubmission } from "@/lib/domain/scoring/process-submission";
import { queueStaleScores } from "@/lib/domain/scoring/queue-stale-scores";
import { retrySubmission } from "@/lib/domain/scoring/retry-submission";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { reconcileScoringQueue } from "@/lib/domain/scoring/reconcile-queue";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { registerUser } from "@/lib/domain/accounts/register-user";
import { AWAITING_APPROVAL_MESSAGE, testApprovalPolicy } from "@/lib/domain/accounts/test-approval";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { submitLines } from "./support/uploads";
import { sessionCookieHeader } from "@/testing/test-sessions";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * Protocol §12 identity rules: the test quota binds the account and the
 * client address (TEST_QUOTA_PER_DAY=2, TEST_QUOTA_TOTAL=4 here), counted from
 * the quota ledger alone; sign-up limits key an IPv6 client by its /64;
 * releases of 1,000 test samples or more need approved accounts. Uploads go
 * through the real route handler with the socket address the web process
 * stamps (SOCKET_ADDRESS_HEADER), as `next start` would see them.
 */
const BASE = "http://127.0.0.1:3100";

let release: TestRelease;
let seed = 9000;

beforeAll(async () => {
  assertTestServices();
  expect(getEnv()).toMatchObject({ TEST_QUOTA_PER_DAY: 2, TEST_QUOTA_TOTAL: 4, TEST_REQUIRES_APPROVAL: "auto", TRUSTED_PROXY_HOPS: 0 });
  await resetTestState();
  release = await importSmallRelease(41);
});

afterAll(async () => {
  for (const [name, value] of Object.entries(previous)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function tokenOf(user: TestUser): Promise<string> {
  return (await createApiToken({ actor: sessionActor(user), name: "quota" })).token;
}

function nextTestLines(): string[] {
  seed += 1;
  return predictionLines(release, "test", seed % 2 === 0 ? "open" : "closed", 0.4, seed);
}

/** POST /api/submissions as the web process hands it on: the socket address stamped in its own header. */
async function upload(token: string, socketAddress: string, lines: readonly string[] = nextTestLines(), extraHeaders: Record<string, string> = {}): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([toJsonl(lines)], { type: "application/x-ndjson" }), "predictions.jsonl");
  return postSubmission(
    new Request(`${BASE}/api/submissions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, [SOCKET_ADDRESS_HEADER]: socketAddress, ...extraHeaders },
      body: form,
    }),
  );
}

async function errorMessage(response: Response): Promise<string> {
  return ((await response.json()) as { error: { message: string } }).error.message;
}

async function readLedger(token: string): Promise<QuotaLedgerBody> {
  const response = await getLedger(new Request(`${BASE}/api/quota/ledger`, { headers: { authorization: `Bearer ${token}` } }));
  expect(response.status).toBe(200);
  return (await response.json()) as QuotaLedgerBody;
}

/** GET /api/submissions/:id as its owner: what the submission cost, from the ledger. */
async function quotaOfSubmission(token: string, id: string): Promise<SubmissionViewBody["quota"]> {
  const response = await getSubmission(new Request(`${BASE}/api/submissions/${id}`, { headers: { authorization: `Bearer ${token}` } }), {
    params: Promise.resolve({ id }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as SubmissionViewBody).quota;
}

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${error === undefined ? "success" : String(error)}`);
  return error;
}

describe("the address budget", () => {
  it("is shared by every account at one address: the second account is refused with the address's message, not its own", async () => {
    const [ada, bob] = await Promise.all([createTestUser({ label: "addr-ada", withoutPassword: true }), createTestUser({ label: "addr-bob", withoutPassword: true })]);
    const [adaToken, bobToken] = await Promise.all([tokenOf(ada), tokenOf(bob)]);
    const address = "198.51.100.41";

    expect((await upload(adaToken, address)).status).toBe(201);
    expect((await upload(adaToken, address)).status).toBe(201);
    const adaRefused = await upload(adaToken, address);
    expect(adaRefused.status).toBe(429);
    expect(await errorMessage(adaRefused)).toMatch(/^You have used your 2 test submissions of the last 24 hours\./);

    // Bob has spent nothing of his own, but the address has.
    expect((await getTestQuota(bob.id, release.releaseId)).remaining).toBe(2);
    const bobRefused = await upload(bobToken, address);
    expect(bobRefused.status).toBe(429);
    expect(Number(bobRefused.headers.get("retry-after"))).toBeGreaterThan(23 * 3600);
    expect(await errorMessage(bobRefused)).toMatch(
      /^This network address has used its 2 test submissions of the last 24 hours \(shared by every account that uploads from it\)\. The next one is available at \d{4}-\d\d-\d\d \d\d:\d\d UTC\./,
    );
    expect(await db.submission.count({ where: { userId: bob.id } })).toBe(0);

    // From another address Bob's own budget is whole; a forged X-Forwarded-For does not move him (no trusted proxy).
    const forged = await upload(bobToken, address, nextTestLines(), { "x-forwarded-for": "203.0.113.77" });
    expect(forged.status).toBe(429);
    expect((await upload(bobToken, "198.51.100.42")).status).toBe(201);
    const stored = await db.submission.findMany({ where: { userId: { in: [ada.id, bob.id] } }, select: { clientAddress: true } });
    expect(stored.map((row) => row.clientAddress).sort()).toEqual([address, address, "198.51.100.42"]);
  });

  it("binds unapproved accounts only (protocol v1.3 §12): two approved accounts behind one address each submit their own quota", async () => {
    const [eve, fay] = await Promise.all([createTestUser({ label: "lab-eve", withoutPassword: true }), createTestUser({ label: "lab-fay", withoutPassword: true })]);
    await db.user.updateMany({ where: { id: { in: [eve.id, fay.id] } }, data: { approvedAt: new Date() } });
    const [eveToken, fayToken] = await Promise.all([tokenOf(eve), tokenOf(fay)]);
    const address = "198.51.100.43";

    // Each approved account spends its own 2 of the day behind the lab's one address; neither is refused for the other.
    for (const token of [eveToken, fayToken, eveToken, fayToken]) expect((await upload(token, address)).status).toBe(201);
    for (const [token, user] of [[eveToken, eve], [fayToken, fay]] as const) {
      const refused = await upload(token, address);
      expect(refused.status).toBe(429);
      expect(await errorMessage(refused)).toMatch(/^You have used your 2 test submissions of the last 24 hours\./);
      expect((await getTestQuota(user.id, release.releaseId)).remaining).toBe(0);
    }

    // An unapproved account behind the same address is still bound by it: the lab's four charges spent its budget.
    const gus = await createTestUser({ label: "lab-gus", withoutPassword: true });
    const gusRefused = await upload(await tokenOf(gus), address);
    expect(gusRefused.status).toBe(429);
    expect(await errorMessage(gusRefused)).toMatch(/^This network address has used all 4 test submissions for this release \(shared by every account that uploads from it\)/);
  });

  it("keys IPv6 uploads by their /64: two accounts on one /64 share it, the next /64 is another address", async () => {
    const [cleo, dan] = await Promise.all([createTestUser({ label: "v6-cleo", withoutPassword: true }), createTestUser({ label: "v6-dan", withoutPassword: true })]);
    const [cleoToken, danToken] = await Promise.all([tokenOf(cleo), tokenOf(dan)]);
    expect((await upload(cleoToken, "2001:db8:41:7::1")).status).toBe(201);
    expect((await upload(danToken, "2001:db8:41:7:ffff:ffff:ffff:fffe")).status).toBe(201);
    const refused = await upload(danToken, "2001:db8:41:7::abcd");
    expect(refused.status).toBe(429);
    expect(await errorMessage(refused)).toMatch(/^This network address has used its 2 test submissions/);
    expect((await upload(danToken, "2001:db8:41:8::1")).status).toBe(201);
    const addresses = await db.submission.findMany({ where: { userId: { in: [cleo.id, dan.id] } }, select: { clientAddress: true } });
    expect(addresses.map((row) => row.clientAddress).sort()).toEqual(["2001:db8:41:7::/64", "2001:db8:41:7::/64", "2001:db8:41:8::/64"]);
  });
});

describe("the quota ledger", () => {
  it("never charges an invalid file", async () => {
    const eve = await createTestUser({ label: "ledger-eve", withoutPassword: true });
    const lines = nextTestLines();
    const invalid = await refusal(() => submitLines([...lines, lines[0] ?? ""], { userId: eve.id }));
    expect(invalid.code).toBe("validation");
    expect(await db.quotaLedgerEntry.count({ where: { userId: eve.id } })).toBe(0);
    expect((await readLedger(await tokenOf(eve))).entries).toEqual([]);
    expect((await getTestQuota(eve.id, release.releaseId)).usedTotal).toBe(0);
  });

  it("refunds a file the platform failed to score (worker gave up, or SCORING_MAX_ATTEMPTS reached), once, with the reason", async () => {
    const fay = await createTestUser({ label: "ledger-fay", withoutPassword: true });
    const token = await tokenOf(fay);
    const address = "198.51.100.51";
    const crashedResponse = await upload(token, address);
    expect(crashedResponse.status).toBe(201);
    const crashed = (await crashedResponse.json()) as { id: string };
    const stalled = (await (await upload(token, address)).json()) as { id: string };
    expect((await getTestQuota(fay.id, release.releaseId)).remaining).toBe(0);

    // The worker's last retry of an internal error, recorded twice (a worker and the reconciler may both).
    await markSubmissionFailed(crashed.id, "INTERNAL", "An internal error stopped scoring after 3 attempts.");
    await markSubmissionFailed(crashed.id, "INTERNAL", "An internal error stopped scoring after 3 attempts.");
    expect(await getTestQuota(fay.id, release.releaseId)).toMatchObject({ usedToday: 1, usedTotal: 1, remaining: 1 });

    // The reconciler's give-up: started SCORING_MAX_ATTEMPTS times with no live job.
    await (await getScoringQueue().getJob(stalled.id))?.remove();
    await db.submission.update({ where: { id: stalled.id }, data: { status: "SCORING", attempts: getEnv().SCORING_MAX_ATTEMPTS } });
    await reconcileScoringQueue(new Date(Date.now() + 60_000));
    expect(await db.submission.findUniqueOrThrow({ where: { id: stalled.id }, select: { status: true, failureKind: true } })).toEqual({
      status: "FAILED",
      failureKind: "INTERNAL",
    });
    expect(await getTestQuota(fay.id, release.releaseId)).toMatchObject({ usedToday: 0, usedTotal: 0, remaining: 2 });

    const ledger = await readLedger(token);
    expect(ledger.entries.map((entry) => [entry.kind, entry.submissionId, entry.madeBy])).toEqual(
      expect.arrayContaining([
        ["CHARGE", crashed.id, "upload"],
        ["CHARGE", stalled.id, "upload"],
        ["REFUND", crashed.id, "platform"],
        ["REFUND", stalled.id, "platform"],
      ]),
    );
    expect(ledger.entries).toHaveLength(4);
    const refund = ledger.entries.find((entry) => entry.kind === "REFUND" && entry.submissionId === crashed.id);
    expect(refund?.reason).toBe("Scoring failed on the platform's side: An internal error stopped scoring after 3 attempts.");
    expect(refund?.amount).toBe(-1);
    // The address got its charges back too: the same address uploads again.
    expect((await upload(token, address)).status).toBe(201);
  });

  it("a re-score that fails internally keeps the charge of a file whose scores were shown, and says so", async () => {
    const lea = await createTestUser({ label: "ledger-lea", withoutPassword: true });
    const submission = await submitLines(nextTestLines(), { userId: lea.id });
    expect(await processSubmission(submission.id)).toBe("scored");
    // A maintainer's re-score puts it back to QUEUED; the worker then gives up on it.
    expect((await queueStaleScores({ includeCurrent: true })).queued).toContain(submission.id);
    await markSubmissionFailed(submission.id, "INTERNAL", "An internal error stopped scoring after 3 attempts.");
    expect(await db.quotaLedgerEntry.findMany({ where: { submissionId: submission.id }, select: { kind: true } })).toEqual([{ kind: "CHARGE" }]);
    expect((await getTestQuota(lea.id, release.releaseId)).usedTotal).toBe(1);
    const row = await db.submission.findUniqueOrThrow({ where: { id: submission.id } });
    expect(row.failureReason).toBe(
      "An internal error stopped scoring after 3 attempts. Its test quota charge stays: its scores were shown to you before this re-score failed.",
    );
  });

  it("a maintainer's retry of a refunded file charges it again, with the reason on the ledger; each round refunds once", async () => {
    const maintainer = await createTestUser({ label: "ledger-retry-maint", role: "MAINTAINER", withoutPassword: true });
    const max = await createTestUser({ label: "ledger-max", withoutPassword: true });
    const token = await tokenOf(max);
    const created = (await (await upload(token, "198.51.100.81")).json()) as { id: string };
    expect(await quotaOfSubmission(token, created.id)).toEqual({ state: "charged", reason: null });
    await markSubmissionFailed(created.id, "INTERNAL", "The store did not answer.");
    // The submission's own view reads the ledger: refunded, with the reason (no "counts toward your quota" flag).
    expect(await quotaOfSubmission(token, created.id)).toEqual({ state: "refunded", reason: "Scoring failed on the platform's side: The store did not answer." });
    expect((await db.submission.findUniqueOrThrow({ where: { id: created.id } })).failureReason).toBe(
      "The store did not answer. Its test quota charge was refunded (see the quota ledger on your account page).",
    );
    expect((await getTestQuota(max.id, release.releaseId)).usedTotal).toBe(0);

    expect(await retrySubmission(sessionActor(maintainer), created.id, "store fixed")).toMatchObject({ isChargedAgain: true });
    expect(await quotaOfSubmission(token, created.id)).toEqual({
      state: "charged",
      reason: "Charged again: a maintainer sent this refunded submission back to scoring, and its scores will be shown to you.",
    });
    expect(await getTestQuota(max.id, release.releaseId)).toMatchObject({ usedToday: 1, usedTotal: 1 });
    const audit = await db.auditLog.findFirstOrThrow({ where: { action: "submission.retry", targetId: created.id } });
    expect(audit.details).toMatchObject({ isChargedAgain: true });
    // Failing again before any score was shown refunds the new charge, once.
    await markSubmissionFailed(created.id, "INTERNAL", "The store did not answer.");
    await markSubmissionFailed(created.id, "INTERNAL", "The store did not answer.");
    expect((await getTestQuota(max.id, release.releaseId)).usedTotal).toBe(0);
    await retrySubmission(sessionActor(maintainer), created.id);
    expect(await processSubmission(created.id)).toBe("scored");
    expect(await getTestQuota(max.id, release.releaseId)).toMatchObject({ usedToday: 1, usedTotal: 1 });

    const ledger = await readLedger(token);
    expect(ledger.entries.map((entry) => [entry.kind, entry.madeBy])).toEqual([
      ["CHARGE", "maintainer"],
      ["REFUND", "platform"],
      ["CHARGE", "maintainer"],
      ["REFUND", "platform"],
      ["CHARGE", "upload"],
    ]);
    expect(ledger.entries[0]?.reason).toBe("Charged again: a maintainer sent this refunded submission back to scoring, and its scores will be shown to you.");
    // A retry of a submission whose charge stands charges nothing more.
    await markSubmissionFailed(created.id, "INTERNAL", "The store did not answer.");
    expect(await retrySubmission(sessionActor(maintainer), created.id)).toMatchObject({ isChargedAgain: false });
    expect((await getTestQuota(max.id, release.releaseId)).usedTotal).toBe(1);
  });

  it("an invalid file found by the worker is not refunded (the file's fault, not the platform's)", async () => {
    const gil = await createTestUser({ label: "ledger-gil", withoutPassword: true });
    const submission = await submitLines(nextTestLines(), { userId: gil.id });
    await markSubmissionFailed(submission.id, "INVALID", "line 3: unknown id");
    expect((await getTestQuota(gil.id, release.releaseId)).usedTotal).toBe(1);
    expect(await db.quotaLedgerEntry.count({ where: { submissionId: submission.id, kind: "REFUND" } })).toBe(0);
  });

  it("GET /api/quota/ledger shows only the caller's own rows, even at a shared address", async () => {
    const [hal, ida] = await Promise.all([createTestUser({ label: "ledger-hal", withoutPassword: true }), createTestUser({ label: "ledger-ida", withoutPassword: true })]);
    const [halToken, idaToken] = await Promise.all([tokenOf(hal), tokenOf(ida)]);
    const address = "198.51.100.61";
    const halSubmission = (await (await upload(halToken, address)).json()) as { id: string };
    const idaSubmission = (await (await upload(idaToken, address)).json()) as { id: string };
    const halLedger = await readLedger(halToken);
    expect(halLedger.releaseId).toBe(release.releaseId);
    expect(halLedger.entries.map((entry) => entry.submissionId)).toEqual([halSubmission.id]);
    expect((await readLedger(idaToken)).entries.map((entry) => entry.submissionId)).toEqual([idaSubmission.id]);
    const anonymous = await getLedger(new Request(`${BASE}/api/quota/ledger`));
    expect(anonymous.status).toBe(401);
  });
});

describe("maintainers adjust a participant's quota", () => {
  async function adjust(targetId: string, body: unknown, asUser: TestUser): Promise<Response> {
    return postQuotaAdjustment(
      new Request(`${BASE}/api/admin/users/${targetId}/quota`, {
        method: "POST",
        headers: { cookie: await sessionCookieHeader({ id: asUser.id }), origin: BASE, "content-type": "application/json" },
        body: JSON.stringify(body),
      }),
      { params: Promise.resolve({ id: targetId }) },
    );
  }

  it("a grant raises the account's budget (at its address too), is audited and shows on the participant's ledger; a refund likewise", async () => {
    const maintainer = await createTestUser({ label: "quota-maint", role: "MAINTAINER", withoutPassword: true });
    const jo = await createTestUser({ label: "quota-jo", withoutPassword: true });
    const token = await tokenOf(jo);
    const address = "198.51.100.71";
    const first = (await (await upload(token, address)).json()) as { id: string };
    expect((await upload(token, address)).status).toBe(201);
    expect((await upload(token, address)).status).toBe(429);

    // A participant cannot grant themselves anything; a reason is required.
    expect((await adjust(jo.id, { action: "grant", amount: 2, reason: "please" }, jo)).status).toBe(403);
    expect((await adjust(jo.id, { action: "grant", amount: 2, reason: " " }, maintainer)).status).toBe(422);
    expect(await db.quotaLedgerEntry.count({ where: { userId: jo.id, kind: "GRANT" } })).toBe(0);

    const granted = await adjust(jo.id, { action: "grant", amount: 2, reason: "reproduction study" }, maintainer);
    expect(granted.status).toBe(200);
    expect(await getTestQuota(jo.id, release.releaseId)).toMatchObject({ perDay: 4, total: 6, usedToday: 2, remaining: 2, granted: 2 });
    const grantAudit = await db.auditLog.findFirstOrThrow({ where: { action: "quota.granted", targetId: jo.id } });
    expect(grantAudit).toMatchObject({ actorId: maintainer.id, targetType: "User", reason: "reproduction study" });
    expect(grantAudit.details).toMatchObject({ releaseId: release.releaseId, amount: 2 });
    // Usable from the address the participant uploads from.
    expect((await upload(token, address)).status).toBe(201);

    const refunded = await adjust(jo.id, { action: "refund", submissionId: first.id, reason: "scored against a broken gold" }, maintainer);
    expect(refunded.status).toBe(200);
    expect(await db.auditLog.findFirstOrThrow({ where: { action: "quota.refunded", targetId: first.id } })).toMatchObject({
      actorId: maintainer.id,
      reason: "scored against a broken gold",
    });
    expect((await adjust(jo.id, { action: "refund", submissionId: first.id, reason: "again" }, maintainer)).status).toBe(409);

    const ledger = await readLedger(token);
    const grant = ledger.entries.find((entry) => entry.kind === "GRANT");
    expect(grant).toMatchObject({ amount: -2, reason: "reproduction study", madeBy: "maintainer", submissionId: null });
    expect(ledger.entries.find((entry) => entry.kind === "REFUND")).toMatchObject({ submissionId: first.id, madeBy: "maintainer", reason: "scored against a broken gold" });
    expect(await getTestQuota(jo.id, release.releaseId)).toMatchObject({ usedTotal: 2, remaining: 2 });
  });
});

describe("sign-up limits", () => {
  it("key an IPv6 client by its /64: any address of the /64 counts, the neighbouring /64 does not", async () => {
    const prefix = `2001:db8:${randomBytes(2).toString("hex")}:${randomBytes(2).toString("hex")}`;
    const created: string[] = [];
    const signUp = async (ip: string) => {
      const email = `v6-${randomBytes(6).toString("hex")}@quota.int.example.org`;
      created.push(email);
      await registerUser({ email, password: "long enough password", displayName: "IPv6", affiliation: "", ip });
    };
    try {
      for (let index = 0; index < AUTH_RATE_LIMITS.signUpPerIp.limit; index += 1) {
        // a new interface identifier each time, as a script rotating addresses within its /64 would
        await signUp(`${prefix}:${randomBytes(2).toString("hex")}:${index + 1}::${randomBytes(2).toString("hex")}`);
      }
      const refused = await refusal(() => signUp(`${prefix}:ffff:ffff:ffff:ffff`));
      expect(refused.code).toBe("rate_limited");
      expect(toHttpStatus(refused)).toBe(429);
      const [group3 = "0", group4 = "0"] = prefix.split(":").slice(2);
      const neighbour = `2001:db8:${group3}:${(Number.parseInt(group4, 16) ^ 1).toString(16)}::1`;
      await signUp(neighbour);
      expect(await db.user.count({ where: { email: { in: created } } })).toBe(AUTH_RATE_LIMITS.signUpPerIp.limit + 1);
    } finally {
      await db.user.deleteMany({ where: { email: { in: created } } });
    }
  });
});

describe("TEST_REQUIRES_APPROVAL unset (auto)", () => {
  it("needs approved accounts on a release of 1,000 test samples or more, and none below", async () => {
    const kim = await createTestUser({ label: "auto-kim", withoutPassword: true });
    // The small release (232 test samples): no approval needed.
    expect(testApprovalPolicy(await db.datasetRelease.findUniqueOrThrow({ where: { id: release.releaseId } }))).toMatchObject({
      isRequired: false,
      source: "auto",
      isLargeRelease: false,
    });
    expect((await submitLines(nextTestLines(), { userId: kim.id })).split).toBe("test");

    // A release whose test split has at least 1,000 samples: the train entities' samples move to test
    // (whole entities, so the splits stay disjoint), all but one entity's, which stays in train.
    const large = await importSmallRelease(43, (content) => {
      const keptQid = content.samples.train[0]?.qid;
      content.samples.test.push(...content.samples.train.filter((sample) => sample.qid !== keptQid));
      content.samples.train = content.samples.train.filter((sample) => sample.qid === keptQid);
    });
    const row = await db.datasetRelease.findUniqueOrThrow({ where: { id: large.releaseId } });
    const policy = testApprovalPolicy(row);
    expect(policy.testSamples).toBeGreaterThanOrEqual(1000);
    expect(policy).toMatchObject({ isRequired: true, source: "auto", isLargeRelease: true });

    const lines = predictionLines(large, "test", "open", 0.4, 4301);
    const refused = await refusal(() => submitLines(lines, { userId: kim.id }));
    expect(toHttpStatus(refused)).toBe(403);
    expect(refused.message).toBe(AWAITING_APPROVAL_MESSAGE);
    expect(await db.quotaLedgerEntry.count({ where: { userId: kim.id, releaseId: large.releaseId } })).toBe(0);
    // Dev files stay open; an approved account submits test files.
    expect((await submitLines(predictionLines(large, "dev", "open", 0.4, 4302), { userId: kim.id })).split).toBe("dev");
    await db.user.update({ where: { id: kim.id }, data: { approvedAt: new Date() } });
    expect((await submitLines(lines, { userId: kim.id })).split).toBe("test");
  });
});

describe("the participant's ledger covers every release, a page at a time", () => {
  async function ledgerAt(token: string, query: string): Promise<Response> {
    return getLedger(new Request(`${BASE}/api/quota/ledger${query}`, { headers: { authorization: `Bearer ${token}` } }));
  }

  it("?release= picks one release or all (each row naming its release), and an answer cut at 500 rows says so and pages on", async () => {
    const maintainer = await createTestUser({ label: "pages-maint", role: "MAINTAINER", withoutPassword: true });
    const ned = await createTestUser({ label: "pages-ned", withoutPassword: true });
    const token = await tokenOf(ned);
    // The small release is the active one again (the test above activated a large one).
    await db.datasetRelease.updateMany({ where: { isActive: true }, data: { isActive: false } });
    const older = await db.datasetRelease.update({ where: { id: release.releaseId }, data: { isActive: true } });
    // A charge on the release active now, then a newer release becomes the active one.
    const uploaded = await upload(token, "198.51.100.91");
    expect(uploaded.status).toBe(201);
    const oldCharge = (await uploaded.json()) as { id: string };
    const newer = await importSmallRelease(44);
    expect((await db.datasetRelease.findFirstOrThrow({ where: { isActive: true } })).id).toBe(newer.releaseId);
    await db.quotaLedgerEntry.create({
      data: { userId: ned.id, releaseId: newer.releaseId, kind: "GRANT", amount: -1, windowAt: new Date(), reason: "new release", actorId: maintainer.id },
    });

    // The default is the active release only; release=all shows the older release's charge too, named.
    const active = await readLedger(token);
    expect(active).toMatchObject({ releaseId: newer.releaseId, hasMore: false, nextBefore: null });
    expect(active.entries.map((entry) => entry.kind)).toEqual(["GRANT"]);
    const all = (await (await ledgerAt(token, "?release=all")).json()) as QuotaLedgerBody;
    expect(all.releaseId).toBeNull();
    expect(all.entries.map((entry) => [entry.kind, entry.releaseId])).toEqual([
      ["GRANT", newer.releaseId],
      ["CHARGE", older.id],
    ]);
    expect(all.entries[1]).toMatchObject({ submissionId: oldCharge.id, releaseName: `${older.name} ${older.version}` });
    const one = (await (await ledgerAt(token, `?release=${older.id}`)).json()) as QuotaLedgerBody;
    expect(one.entries.map((entry) => entry.submissionId)).toEqual([oldCharge.id]);

    // Bad input names the parameter and what is wrong.
    const unknown = await ledgerAt(token, "?release=nosuchrelease");
    expect(unknown.status).toBe(404);
    expect(await errorMessage(unknown)).toBe("release: no release has the id nosuchrelease (use a release id or all).");
    const foreign = await ledgerAt(token, `?before=${(await db.quotaLedgerEntry.findFirstOrThrow({ where: { NOT: { userId: ned.id } } })).id}`);
    expect(foreign.status).toBe(422);
    expect(await errorMessage(foreign)).toMatch(/^before: \S+ is not a row of this quota ledger/);

    // 501 more rows: the first answer holds 500 and says there are more; the next page has the rest.
    const base = Date.now() - 60_000;
    await db.quotaLedgerEntry.createMany({
      data: Array.from({ length: 501 }, (_, index) => ({
        userId: ned.id,
        releaseId: newer.releaseId,
        kind: "GRANT" as const,
        amount: -1,
        windowAt: new Date(base + index),
        createdAt: new Date(base + index),
        reason: `bulk ${index}`,
        actorId: maintainer.id,
      })),
    });
    const first = (await (await ledgerAt(token, "?release=all")).json()) as QuotaLedgerBody;
    expect(first.entries).toHaveLength(500);
    expect(first.hasMore).toBe(true);
    expect(first.nextBefore).toBe(first.entries.at(-1)?.id);
    const second = (await (await ledgerAt(token, `?release=all&before=${first.nextBefore}`)).json()) as QuotaLedgerBody;
    expect(second).toMatchObject({ hasMore: false, nextBefore: null });
    expect(second.entries).toHaveLength(503 - 500);
    expect(new Set([...first.entries, ...second.entries].map((entry) => entry.id)).size).toBe(503);
    expect(second.entries.at(-1)?.reason).toBe("bulk 0");
  });
});
