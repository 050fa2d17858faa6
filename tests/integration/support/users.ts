import { randomBytes } from "node:crypto";
import type { UserActor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import type { Role } from "@/lib/generated/prisma";

export type TestUser = { id: string; email: string; displayName: string; role: Role };

/** A user row made directly (no password: these tests never sign in). */
export async function createTestUser(label: string, role: Role = "PARTICIPANT"): Promise<TestUser> {
  const suffix = randomBytes(4).toString("hex");
  return db.user.create({
    data: { email: `${label}-${suffix}@submissions.int.example.org`, displayName: `${label} ${suffix}`, role },
    select: { id: true, email: true, displayName: true, role: true },
  });
}

/** The actor a signed-in browser session of this user would have. */
export function actorOf(user: TestUser): UserActor {
  return { kind: "user", userId: user.id, role: user.role, displayName: user.displayName, via: "session" };
}
