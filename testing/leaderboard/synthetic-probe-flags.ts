import { CLOSED_PROBE_FLAG_IDS, OPEN_PROBE_FLAG_IDS, PROBE_FLAGS_VERSION, SHARED_PROBE_FLAG_IDS, probeFlagsSchema, type ProbeFlags } from "@/lib/core/integrity/probe-flags-schema";
import { PROBE_FLAG_LABELS, PROBE_FLAG_THRESHOLDS } from "@/lib/core/integrity/probe-flags";

/**
 * Probe flags of the current version with no sign counted, for seeded entries
 * that stand for clean test files: a seeded entry has outcomes but no answers,
 * so its flags cannot be computed, and a test score without current flags is
 * re-read from its file on a re-score (process-submission.ts), which a seeded
 * entry does not have.
 */
export function syntheticProbeFlags(track: "open" | "closed", n: number): ProbeFlags {
  const ids = [...(track === "closed" ? CLOSED_PROBE_FLAG_IDS : OPEN_PROBE_FLAG_IDS), ...SHARED_PROBE_FLAG_IDS];
  return probeFlagsSchema.parse({
    version: PROBE_FLAGS_VERSION,
    track,
    n,
    flags: ids.map((id) => ({ id, label: PROBE_FLAG_LABELS[id], value: 0, threshold: PROBE_FLAG_THRESHOLDS[id], raised: false, count: 0 })),
  });
}
