import type { SeededRandom } from "@/testing/synthetic/seeded-random";
import type { EntityType } from "@/lib/core/dataset/release-schema";
import { encodeClosedOutcome } from "@/lib/core/scoring/outcome-codes";
import type { Track } from "@/lib/core/scoring/tracks";

/**
 * Synthetic leaderboard entries for benchmarks and tests: metadata and
 * per-sample outcome codes drawn from a simple skill model, deterministic for
 * a seed. Real scoring code (lib/core/scoring) turns the codes into reports and
 * comparisons, exactly as for a real submission.
 */

export type SyntheticEntry = {
  system: string;
  track: Track;
  isBaseline: boolean;
  /** Index into the seeded teams. */
  team: number;
  /** Chance of a top answer on an average sample. */
  skill: number;
  parameterCount: number | null;
  isOpenWeights: boolean | null;
  description: string;
};

const BIRDS = ["Kestrel", "Heron", "Osprey", "Wren", "Lark", "Finch", "Plover", "Swift", "Egret", "Ibis", "Puffin", "Tern", "Merlin", "Shrike", "Curlew", "Dunlin"];
export const SYNTHETIC_TEAMS = ["Aurora Lab", "Birch NLP", "Cobalt AI", "Delta Group", "Elm Research", "Fjord Institute", "Granite Team", "Harbor Lab"];
const SIZES = [110e6, 350e6, 1.5e9, 7e9, 8e9, 13e9, 70e9];

/** Per-type shift of the chance of a top answer (persons are hardest, as in the paper). */
const TYPE_SHIFT: Record<EntityType, number> = {
  Place: 0,
  Organization: 0.04,
  Person: -0.1,
  Event: 0.06,
  Work: 0.01,
  "Military Unit": -0.05,
  Other: -0.02,
};

export const SYNTHETIC_BASELINES: readonly SyntheticEntry[] = [
  { system: "Most-frequent-name baseline", track: "open", isBaseline: true, team: -1, skill: 0.08, parameterCount: null, isOpenWeights: null, description: "Predicts the most frequent training entity of the sample's collection." },
  { system: "Zero-shot prompt baseline", track: "open", isBaseline: true, team: -1, skill: 0.22, parameterCount: 8e9, isOpenWeights: true, description: "An 8B instruction model asked for the entity's name, no examples." },
  { system: "BM25 description baseline", track: "closed", isBaseline: true, team: -1, skill: 0.1, parameterCount: null, isOpenWeights: null, description: "BM25 over knowledge-base descriptions." },
  { system: "Dense retriever baseline", track: "closed", isBaseline: true, team: -1, skill: 0.18, parameterCount: 110e6, isOpenWeights: true, description: "An off-the-shelf bi-encoder over entity descriptions." },
];

/** `count` participant entries: names "Kestrel-1", "Heron-1", ..., alternating tracks, skills spread over [0.05, 0.55]. */
export function planSyntheticEntries(count: number, random: SeededRandom): SyntheticEntry[] {
  const entries: SyntheticEntry[] = [];
  for (let i = 0; i < count; i += 1) {
    const bird = BIRDS[i % BIRDS.length] ?? "Kestrel";
    const track: Track = i % 3 === 2 ? "closed" : "open";
    const hasSize = random.chance(0.85);
    entries.push({
      system: `${bird}-${Math.floor(i / BIRDS.length) + 1}`,
      track,
      isBaseline: false,
      team: i % SYNTHETIC_TEAMS.length,
      skill: 0.05 + 0.5 * random.next(),
      parameterCount: hasSize ? random.pick(SIZES) : null,
      isOpenWeights: random.chance(0.15) ? null : random.chance(0.6),
      description: `A synthetic ${track}-world system used to exercise the leaderboard.`,
    });
  }
  return entries;
}

function clamp(value: number): number {
  return Math.min(0.97, Math.max(0.01, value));
}

/** A gold rank for a miss: ranked lower down (2..100) or not at all. */
function missRank(random: SeededRandom): number {
  if (!random.chance(0.6)) return 0;
  return Math.min(100, 2 + Math.floor(-Math.log(1 - random.next()) * 6));
}

/** Outcome codes (outcome-codes.ts) of an entry over gold samples of the given types, in gold order. */
export function synthesizeOutcomeCodes(entry: SyntheticEntry, goldTypes: readonly EntityType[], random: SeededRandom): Uint8Array {
  const codes = new Uint8Array(goldTypes.length);
  goldTypes.forEach((type, index) => {
    const p = clamp(entry.skill + TYPE_SHIFT[type]);
    const u = random.next();
    if (entry.track === "open") {
      // Tiers 1..4 (section 6): mostly exact among the right answers, some partial matches after.
      codes[index] = u < p * 0.8 ? 1 : u < p ? 2 : u < p + 0.08 ? 3 : u < p + 0.12 ? 4 : 0;
      return;
    }
    if (u < p) {
      codes[index] = encodeClosedOutcome(1, true);
      return;
    }
    // A different entity with the gold's name on top counts for alias_hit@1 only.
    codes[index] = encodeClosedOutcome(missRank(random), random.chance(0.05));
  });
  return codes;
}
