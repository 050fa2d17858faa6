import "server-only";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import { formatDateTime } from "@/lib/core/format/dates";
import type { Prisma } from "@/lib/platform/generated/prisma";

/**
 * Protocol §12: a test file the account already uploaded to this release,
 * byte for byte, is refused before it is stored or queued (422, no quota):
 * its score is already known, and a second one would only spend a quota
 * slot. Near-copies are not refused here; what could be read from two close
 * files is guarded when one of them is to be published
 * (find-publication-refusal.ts). A file the worker found invalid was never
 * scored and does not count. Run inside the transaction that holds the
 * account's submission lock, so two concurrent copies cannot both pass.
 */
export async function assertNotIdenticalUpload(
  upload: { userId: string; releaseId: string; fileSha256: string },
  client: Prisma.TransactionClient = db,
): Promise<void> {
  const earlier = await client.submission.findFirst({
    where: {
      userId: upload.userId,
      releaseId: upload.releaseId,
      split: "test",
      fileSha256: upload.fileSha256,
      // (a plain NOT would also drop the rows whose failureKind is NULL)
      OR: [{ failureKind: null }, { failureKind: { not: "INVALID" } }],
    },
    orderBy: { createdAt: "asc" },
    select: { id: true, createdAt: true },
  });
  if (earlier === null) return;
  throw new AppError(
    "validation",
    `This file is identical to your submission ${earlier.id} (uploaded ${formatDateTime(earlier.createdAt)}), whose score you already have: ` +
      "a test file is scored once per account (protocol §12). Nothing was stored and it cost no quota.",
  );
}
