import { isPublicEntry } from "@/lib/domain/scoring/public-entry-rule";

/**
 * Who can see a submission right now, in the reader's words (its owner, or a
 * maintainer looking at someone else's submission): the same rule the
 * public pages apply (lib/core/leaderboard/public-entry.ts), so the submission page
 * never says "private" for something the leaderboard shows.
 */
export type SubmissionVisibility = { isPublic: boolean; text: string };

export type VisibilityInput = {
  split: string;
  isBaseline: boolean;
  baselineLabel: string | null;
  publication: "PRIVATE" | "PENDING" | "PUBLISHED" | "REJECTED" | "HIDDEN";
  /** HIDDEN by its owner rather than by a maintainer. */
  hiddenByOwner?: boolean;
};

type VisibilityReader = "owner" | "maintainer";

export function describeVisibility(submission: VisibilityInput, reader: VisibilityReader = "owner"): SubmissionVisibility {
  const isPublic = isPublicEntry(submission);
  const ONLY_YOU = reader === "owner" ? "only you and the maintainers see it" : "only its owner and the maintainers see it";
  const yourRequest = reader === "owner" ? "your publication request" : "the owner's publication request";
  if (submission.isBaseline) {
    return { isPublic, text: `Public as the baseline "${submission.baselineLabel ?? "unnamed"}": anyone sees its scores, and entries are compared with it.` };
  }
  if (isPublic) return { isPublic, text: "Public: published on the leaderboard." };
  if (submission.split !== "test") return { isPublic, text: `Private: ${ONLY_YOU}. Dev submissions are never published.` };
  switch (submission.publication) {
    case "PENDING":
      return { isPublic, text: `Private until a maintainer approves ${yourRequest}; until then ${ONLY_YOU}.` };
    case "REJECTED":
      return { isPublic, text: `Private: the publication request was rejected; ${ONLY_YOU}.` };
    case "HIDDEN":
      if (submission.hiddenByOwner) {
        const who = reader === "owner" ? "you hid it from the leaderboard (you can show it again)" : "its owner hid it from the leaderboard";
        return { isPublic, text: `Private: ${who}; ${ONLY_YOU}.` };
      }
      return { isPublic, text: `Private: a maintainer hid it from the leaderboard; ${ONLY_YOU}.` };
    default:
      return { isPublic, text: `Private: ${ONLY_YOU}.` };
  }
}
