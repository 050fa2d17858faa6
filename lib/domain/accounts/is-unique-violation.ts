import { Prisma } from "@/lib/platform/generated/prisma";

/** Prisma's P2002: a unique constraint (for example User.email) refused the write. */
export function isUniqueViolation(error: unknown): boolean {
  return error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002";
}
