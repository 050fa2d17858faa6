import type { DisclosureLevel } from "./disclose";

/**
 * What a reproduction check (provenance tier "reproduced", lib/provenance)
 * may tell: how many of the test samples have a different outcome in the
 * reproduction than in the entry, as a count, to a maintainer only. Which
 * samples differ, and how, is per-sample test information (protocol
 * section 12) and never leaves the server.
 */
type DisclosedReproductionCheck = { differing: number; n: number };

export function discloseReproductionCheck(differing: number, n: number, level: DisclosureLevel): DisclosedReproductionCheck {
  if (level !== "full") {
    throw new Error("A reproduction check is disclosed to maintainers only.");
  }
  return { differing, n };
}
