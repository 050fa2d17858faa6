import { isPublicEntry } from "@/lib/scores/public-entry-rule";

/**
 * Who can see a submission right now, in the owner's words: the same rule the
 * public pages apply (lib/leaderboard/public-entry.ts), so the submission page
 * never says "private" for something the leaderboard shows.
 */
export type SubmissionVisibility = { isPublic: boolean; text: string };

export type VisibilityInput = {
  split: string;
  isBaseline: boolean;
  baselineLabel: string | null;
  publication: "PRIVATE" | "PENDING" | "PUBLISHED" | "REJECTED" | "HIDDEN";
};

const ONLY_YOU = "only you and the maintainers see it";

export function describeVisibility(submission: VisibilityInput): SubmissionVisibility {
  const isPublic = isPublicEntry(submission);
  if (submission.isBaseline) {
    return { isPublic, text: `Public as the baseline "${submission.baselineLabel ?? "unnamed"}": anyone sees its scores, and entries are compared with it.` };
  }
  if (isPublic) return { isPublic, text: "Public: published on the leaderboard." };
  if (submission.split !== "test") return { isPublic, text: `Private: ${ONLY_YOU}. Dev submissions are never published.` };
  switch (submission.publication) {
    case "PENDING":
      return { isPublic, text: `Private until a maintainer approves your publication request; until then ${ONLY_YOU}.` };
    case "REJECTED":
      return { isPublic, text: `Private: the publication request was rejected; ${ONLY_YOU}.` };
    case "HIDDEN":
      return { isPublic, text: `Private: a maintainer hid it from the leaderboard; ${ONLY_YOU}.` };
    default:
      return { isPublic, text: `Private: ${ONLY_YOU}.` };
  }
}
