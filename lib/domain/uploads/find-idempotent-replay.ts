import "server-only";
import { db } from "@/lib/platform/db";
import { AppError } from "@/lib/core/errors";
import type { Prisma, Submission } from "@/lib/platform/generated/prisma";
import type { ScoredSplit } from "@/lib/core/scoring/tracks";
import type { Track } from "@/lib/core/scoring/tracks";

type IdempotentRequest = {
  userId: string;
  idempotencyKey: string;
  sha256: string;
  declaredSplit?: ScoredSplit;
  declaredTrack?: Track;
};

/**
 * The submission an earlier upload with this Idempotency-Key made (a retry
 * after a lost response gets it back, charged once), or null when the key is
 * new. The same key with another file, split or track is refused (422): the
 * key names one upload (draft-ietf-httpapi-idempotency-key-header §2.7).
 */
export async function findIdempotentReplay(request: IdempotentRequest, client: Prisma.TransactionClient = db): Promise<Submission | null> {
  const earlier = await client.submission.findUnique({ where: { userId_idempotencyKey: { userId: request.userId, idempotencyKey: request.idempotencyKey } } });
  if (!earlier) return null;
  const differences = [
    earlier.fileSha256 !== request.sha256 ? "a different file" : null,
    request.declaredSplit && request.declaredSplit !== earlier.split ? `split ${earlier.split}, not ${request.declaredSplit}` : null,
    request.declaredTrack && request.declaredTrack !== earlier.track ? `track ${earlier.track}, not ${request.declaredTrack}` : null,
  ].filter((text): text is string => text !== null);
  if (differences.length > 0) {
    throw new AppError(
      "validation",
      `The Idempotency-Key "${request.idempotencyKey}" was already used for submission ${earlier.id} (${differences.join(", ")}). A key names one upload: send a new key for a new file. Nothing was stored and no quota was used.`,
    );
  }
  return earlier;
}
