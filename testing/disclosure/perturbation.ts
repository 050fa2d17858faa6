import type { Perturbation } from "@/lib/core/disclosure/disclose";

/** A fixed perturbation for unit tests of the public level (section 12): the tests' slice secret, a release name and a gold version id. */
export const PERTURBATION: Perturbation = {
  context: { secret: "test-secret-of-at-least-32-characters!!", releaseName: "irc-bench", goldVersion: "gv-0123456789abcdef" },
  entryId: "entry-1",
};
