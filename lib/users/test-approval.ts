import "server-only";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Prisma, Role } from "@/lib/generated/prisma";

export const AWAITING_APPROVAL_MESSAGE =
  "Your account waits for a maintainer's approval to submit to the test split; dev submissions are open.";

type ApprovalFields = { role: Role; isSystem: boolean; approvedAt: Date | null };

/** Maintainers and the system account count as approved. */
export function isApprovedUser(user: ApprovalFields): boolean {
  return user.role === "MAINTAINER" || user.isSystem || user.approvedAt !== null;
}

/** Whether the user may submit test files now (always, unless TEST_REQUIRES_APPROVAL=1). */
export async function mayUserSubmitTest(userId: string, client: Prisma.TransactionClient = db): Promise<boolean> {
  if (!getEnv().TEST_REQUIRES_APPROVAL) return true;
  const user = await client.user.findUnique({ where: { id: userId }, select: { role: true, isSystem: true, approvedAt: true } });
  return user !== null && isApprovedUser(user);
}

/** 403 with AWAITING_APPROVAL_MESSAGE when approval is required and missing. */
export async function assertMayUserSubmitTest(userId: string, client: Prisma.TransactionClient = db): Promise<void> {
  if (!(await mayUserSubmitTest(userId, client))) throw new AppError("forbidden", AWAITING_APPROVAL_MESSAGE);
}
