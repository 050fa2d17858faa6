/**
 * Which submissions the public may see (the storage contract): a published
 * entry of the test split, or a baseline (baselines are always public).
 * Everything else is answered exactly like an id that does not exist.
 */
export function isPublicEntry(submission: { isBaseline: boolean; publication: string; split: string }): boolean {
  return submission.isBaseline || (submission.publication === "PUBLISHED" && submission.split === "test");
}

/** Only http(s) links are shown: a participant-supplied "javascript:" URL must never become a link. */
export function safeExternalUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  try {
    const url = new URL(value);
    return url.protocol === "https:" || url.protocol === "http:" ? url.toString() : null;
  } catch {
    return null;
  }
}
