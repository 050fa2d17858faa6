/**
 * The IRC-Bench paper: the source of every reported result this platform ships (data/reported/) and of the
 * dataset. Its text (the project's seed copy) names no arXiv identifier or URL, so the site links its own
 * citation of it (/dataset#cite) rather than an address nobody has checked.
 */
export const IRC_BENCH_PAPER = {
  title: "IRC-Bench: Recognizing Entities from Contextual Cues in First-Person Reminiscences",
  href: "/dataset#cite",
} as const;

/** The paper a reported row's source names: the IRC-Bench paper's link when its source says so ("IRC-Bench paper, Table 4"), else none. */
export function reportedPaperHref(source: string | null): string | null {
  return source !== null && /\bIRC-Bench paper\b/i.test(source) ? IRC_BENCH_PAPER.href : null;
}
