import "server-only";
import { hashPassword } from "@/lib/domain/accounts/password";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { Role } from "@/lib/platform/generated/prisma";
import { isUniqueViolation } from "@/lib/domain/accounts/is-unique-violation";

type CreateUserOptions = {
  /** Already normalised by emailSchema (trimmed, lower-case). */
  email: string;
  displayName: string;
  affiliation?: string;
  /** Omitted for accounts that sign in with GitHub only. */
  password?: string;
  role?: Role;
};

type CreatedUser = { id: string; email: string; displayName: string; role: Role };

/** Creates an account; AppError("conflict") when the email is taken. */
export async function createUser(options: CreateUserOptions): Promise<CreatedUser> {
  const passwordHash = options.password === undefined ? null : await hashPassword(options.password);
  try {
    return await db.user.create({
      data: {
        email: options.email,
        displayName: options.displayName,
        affiliation: options.affiliation ?? "",
        passwordHash,
        role: options.role ?? "PARTICIPANT",
      },
      select: { id: true, email: true, displayName: true, role: true },
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", `An account with the email ${options.email} already exists.`);
    throw error;
  }
}
