import type { z } from "zod";
import type { progressSchema } from "@/lib/core/api-schemas/progress";
import { splitPartOf } from "@/lib/core/leaderboard/split-part";
import { describeSotaRule } from "./progress";
import type { ProgressView } from "./progress-view";

/** The JSON body of GET /api/leaderboard/progress: snake_case like the rest of the public API, typed by its documented schema. */
export function progressApiBody(view: ProgressView): z.input<typeof progressSchema> {
  return {
    release: { name: view.release.name, version: view.release.version },
    split: "test",
    track: view.track,
    type: view.type,
    metric: view.metric,
    sota_rule: describeSotaRule(),
    significance_level: view.significanceLevel,
    unavailable: view.unavailable,
    points: view.points.map((point) => ({
      id: point.id,
      system: point.system,
      kind: point.kind,
      split_part: splitPartOf(point.kind),
      date: point.date,
      value: point.value,
      status: point.status,
      best: point.best,
      sota_id: point.sotaId,
      test: point.test && {
        against_id: point.test.againstId,
        against: point.test.againstSystem,
        verdict: point.test.verdict,
        p_bucket: point.test.pBucket,
        difference: point.test.difference,
      },
      url: point.kind === "reported" ? null : `/entries/${point.id}`,
    })),
    undated_reported: view.undatedReported,
  };
}
