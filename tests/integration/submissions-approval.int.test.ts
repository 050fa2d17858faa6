import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

// Before any import reads the environment: approval on, sessions signed with the helpers' secret.
const previous = vi.hoisted(() => {
  const saved = { approval: process.env.TEST_REQUIRES_APPROVAL, secret: process.env.NEXTAUTH_SECRET, url: process.env.NEXTAUTH_URL };
  process.env.TEST_REQUIRES_APPROVAL = "1";
  process.env.NEXTAUTH_SECRET = "integration-test-secret-0123456789";
  process.env.NEXTAUTH_URL = "http://127.0.0.1:3100";
  return saved;
});

import { PATCH as patchUser } from "@/app/api/admin/users/[id]/route";
import { POST as postSubmission } from "@/app/api/submissions/route";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { AppError, toHttpStatus } from "@/lib/core/errors";
import { getSharedRedis } from "@/lib/platform/redis";
import { getTestQuota } from "@/lib/domain/quotas/quota";
import { getScoringQueue } from "@/lib/platform/queue/scoring-queue";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { AWAITING_APPROVAL_MESSAGE } from "@/lib/domain/accounts/test-approval";
import { assertTestServices } from "@/testing/local-database";
import { importSmallRelease, predictionLines, toJsonl, type TestRelease } from "./support/release";
import { resetTestState } from "./support/reset";
import { chargesOf, submitLines } from "./support/uploads";
import { sessionCookieHeader } from "@/testing/test-sessions";
import { createTestUser, sessionActor, type TestUser } from "@/testing/test-users";

/**
 * TEST_REQUIRES_APPROVAL=1: test files (site or API token) are refused with
 * 403 until a maintainer approves the account; dev files stay open;
 * maintainers and the system account count as approved. Approval goes
 * through PATCH /api/admin/users/:id and lands in the audit log.
 */
const BASE = "http://127.0.0.1:3100";

let release: TestRelease;
let maintainer: TestUser;

beforeAll(async () => {
  assertTestServices();
  expect(getEnv().TEST_REQUIRES_APPROVAL).toBe(true);
  await resetTestState();
  release = await importSmallRelease(7);
  maintainer = await createTestUser({ label: "approval-maint", role: "MAINTAINER", withoutPassword: true });
});

afterAll(async () => {
  for (const [name, value] of [
    ["TEST_REQUIRES_APPROVAL", previous.approval],
    ["NEXTAUTH_SECRET", previous.secret],
    ["NEXTAUTH_URL", previous.url],
  ] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  await getScoringQueue().close();
  await getSharedRedis().quit();
  await db.$disconnect();
});

async function uploadWithToken(token: string, lines: readonly string[]): Promise<Response> {
  const form = new FormData();
  form.append("file", new Blob([toJsonl(lines)], { type: "application/x-ndjson" }), "predictions.jsonl");
  return postSubmission(new Request(`${BASE}/api/submissions`, { method: "POST", headers: { authorization: `Bearer ${token}` }, body: form }));
}

async function patchAsMaintainer(userId: string, body: unknown, asUser: TestUser = maintainer): Promise<Response> {
  const request = new Request(`${BASE}/api/admin/users/${userId}`, {
    method: "PATCH",
    headers: { cookie: await sessionCookieHeader({ id: asUser.id }), origin: BASE, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return patchUser(request, { params: Promise.resolve({ id: userId }) });
}

async function refusal(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${error === undefined ? "success" : String(error)}`);
  return error;
}

describe("TEST_REQUIRES_APPROVAL=1", () => {
  it("refuses test files of an unapproved account with 403 (site and API token), costing no quota; dev files are open", async () => {
    const ada = await createTestUser({ label: "approval-ada", withoutPassword: true });
    const site = await refusal(() => submitLines(predictionLines(release, "test", "open", 0.4, 1), { userId: ada.id }));
    expect(toHttpStatus(site)).toBe(403);
    expect(site.message).toBe(AWAITING_APPROVAL_MESSAGE);
    expect(site.message).toBe("Your account waits for a maintainer's approval to submit to the test split; dev submissions are open.");

    const { token } = await createApiToken({ actor: sessionActor(ada), name: "ci" });
    const response = await uploadWithToken(token, predictionLines(release, "test", "closed", 0.4, 2));
    expect(response.status).toBe(403);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(AWAITING_APPROVAL_MESSAGE);

    expect(await db.submission.count({ where: { userId: ada.id } })).toBe(0);
    expect((await getTestQuota(ada.id, release.releaseId)).usedTotal).toBe(0);
    const dev = await uploadWithToken(token, predictionLines(release, "dev", "open", 0.4, 3));
    expect(dev.status).toBe(201);
  });

  it("a maintainer approves through the admin API (audit-logged); then test files are accepted; revoking closes them again", async () => {
    const bob = await createTestUser({ label: "approval-bob", withoutPassword: true });
    const approve = await patchAsMaintainer(bob.id, { approved: true, reason: "known lab" });
    expect(approve.status).toBe(200);
    const change = (await approve.json()) as { userId: string; approvedAt: string | null; isChanged: boolean };
    expect(change).toMatchObject({ userId: bob.id, isChanged: true });
    expect(change.approvedAt).not.toBeNull();
    const row = await db.user.findUniqueOrThrow({ where: { id: bob.id }, select: { approvedAt: true } });
    expect(row.approvedAt?.toISOString()).toBe(change.approvedAt);
    const audit = await db.auditLog.findFirstOrThrow({ where: { targetId: bob.id, action: "user.approved" } });
    expect(audit).toMatchObject({ actorId: maintainer.id, targetType: "User", reason: "known lab" });

    // approving again changes nothing and logs nothing
    expect(((await (await patchAsMaintainer(bob.id, { approved: true })).json()) as { isChanged: boolean }).isChanged).toBe(false);
    expect(await db.auditLog.count({ where: { targetId: bob.id } })).toBe(1);

    const accepted = await submitLines(predictionLines(release, "test", "open", 0.4, 4), { userId: bob.id });
    expect(await chargesOf(accepted.id)).toBe(1);

    expect((await patchAsMaintainer(bob.id, { approved: false })).status).toBe(200);
    expect(await db.auditLog.count({ where: { targetId: bob.id, action: "user.approval_revoked" } })).toBe(1);
    const again = await refusal(() => submitLines(predictionLines(release, "test", "open", 0.4, 5), { userId: bob.id }));
    expect(toHttpStatus(again)).toBe(403);
  });

  it("only maintainers approve; the system account cannot be changed; the body must be a role or an approval", async () => {
    const carol = await createTestUser({ label: "approval-carol", withoutPassword: true });
    const dave = await createTestUser({ label: "approval-dave", withoutPassword: true });
    expect((await patchAsMaintainer(carol.id, { approved: true }, dave)).status).toBe(403);
    expect((await db.user.findUniqueOrThrow({ where: { id: carol.id } })).approvedAt).toBeNull();
    expect((await patchAsMaintainer(carol.id, { approved: "yes" })).status).toBe(422);
    expect((await patchAsMaintainer(carol.id, { approved: true, role: "MAINTAINER" })).status).toBe(422);
    const system = await db.user.create({
      data: { email: `system-${Date.now()}@approval.int.example.org`, displayName: "System", isSystem: true },
    });
    expect((await patchAsMaintainer(system.id, { approved: true })).status).toBe(403);
  });

  it("maintainers and the system account count as approved", async () => {
    const maint = await createTestUser({ label: "approval-maint2", role: "MAINTAINER", withoutPassword: true });
    const submission = await submitLines(predictionLines(release, "test", "open", 0.4, 6), { userId: maint.id });
    expect(submission.split).toBe("test");
    const system = await db.user.create({
      data: { email: `system2-${Date.now()}@approval.int.example.org`, displayName: "System 2", isSystem: true },
    });
    const baseline = await submitLines(predictionLines(release, "test", "open", 0.4, 7), { userId: system.id });
    expect(baseline.split).toBe("test");
  });
});
