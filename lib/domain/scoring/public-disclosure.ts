import "server-only";
import { publicGroupPolicy, type Perturbation } from "@/lib/core/disclosure/disclose";
import type { NoiseContext } from "@/lib/core/disclosure/perturb";
import { getEnv, sliceSecretOf } from "@/lib/platform/env";
import { goldVersionId } from "@/lib/domain/scoring/gold-version";

/**
 * What the public level of disclosure needs of the server (protocol section
 * 12, v1.3): the release's group policy and the noise of its public numbers,
 * keyed by the slice secret, the release name and the gold version id of the
 * gold the entry's counts come from. The one place that assembles them.
 */

export function noiseContextOf(releaseName: string, goldSha256: string): NoiseContext {
  return { secret: sliceSecretOf(getEnv()), releaseName, goldVersion: goldVersionId(goldSha256) };
}

export function perturbationOf(releaseName: string, goldSha256: string, entryId: string): Perturbation {
  return { context: noiseContextOf(releaseName, goldSha256), entryId };
}

/** The options of a public disclosure of one entry's stored score. */
export function publicDisclosureOf(release: { name: string; minGroupN: number }, entry: { id: string; goldSha256: string }) {
  return { level: "public" as const, ...publicGroupPolicy(release), perturbation: perturbationOf(release.name, entry.goldSha256, entry.id) };
}
