import "server-only";
import { PROTECTED_TEST_SIZE } from "@/lib/core/disclosure/disclose";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { AppError } from "@/lib/core/errors";
import type { Prisma, Role } from "@/lib/platform/generated/prisma";
import { readReleaseStats } from "@/lib/core/dataset/release-json";

export const AWAITING_APPROVAL_MESSAGE =
  "Your account waits for a maintainer's approval to submit to the test split; dev submissions are open.";

/**
 * Protocol §12: from this many test samples on, a release's test gold is
 * protected, and every per-account budget would be multiplied by the accounts
 * one person can open, so test submissions need an approved account.
 */
export const APPROVAL_TEST_SIZE = PROTECTED_TEST_SIZE;

type ApprovalFields = { role: Role; isSystem: boolean; approvedAt: Date | null };

/** Maintainers and the system account count as approved. */
export function isApprovedUser(user: ApprovalFields): boolean {
  return user.role === "MAINTAINER" || user.isSystem || user.approvedAt !== null;
}

/**
 * Whether a release's test submissions need an approved account, and why:
 * "auto" (TEST_REQUIRES_APPROVAL unset) follows the test split's size; "operator"
 * is an explicit TEST_REQUIRES_APPROVAL=0 or 1. isLargeRelease lets a page say
 * when an operator turned approval off for a release the protocol protects.
 */
export type TestApprovalPolicy = {
  isRequired: boolean;
  source: "auto" | "operator";
  testSamples: number;
  isLargeRelease: boolean;
};

type ReleaseWithStats = { stats: Prisma.JsonValue };

export function testApprovalPolicy(release: ReleaseWithStats): TestApprovalPolicy {
  const setting = getEnv().TEST_REQUIRES_APPROVAL;
  const testSamples = readReleaseStats(release.stats).splits.test.samples;
  const isLargeRelease = testSamples >= APPROVAL_TEST_SIZE;
  if (setting === "auto") return { isRequired: isLargeRelease, source: "auto", testSamples, isLargeRelease };
  return { isRequired: setting, source: "operator", testSamples, isLargeRelease };
}

async function loadRelease(releaseId: string, client: Prisma.TransactionClient): Promise<ReleaseWithStats> {
  const release = await client.datasetRelease.findUnique({ where: { id: releaseId }, select: { stats: true } });
  if (!release) throw new AppError("not_found", "No such dataset release.");
  return release;
}

/** Whether the user may submit test files to the release now (see testApprovalPolicy). */
export async function mayUserSubmitTest(userId: string, releaseId: string, client: Prisma.TransactionClient = db): Promise<boolean> {
  if (!testApprovalPolicy(await loadRelease(releaseId, client)).isRequired) return true;
  const user = await client.user.findUnique({ where: { id: userId }, select: { role: true, isSystem: true, approvedAt: true } });
  return user !== null && isApprovedUser(user);
}

/** 403 with AWAITING_APPROVAL_MESSAGE when the release needs approval and the account has none. */
export async function assertMayUserSubmitTest(userId: string, releaseId: string, client: Prisma.TransactionClient = db): Promise<void> {
  if (!(await mayUserSubmitTest(userId, releaseId, client))) throw new AppError("forbidden", AWAITING_APPROVAL_MESSAGE);
}
