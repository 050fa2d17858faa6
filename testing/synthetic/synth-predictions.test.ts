import { beforeAll, describe, expect, it } from "vitest";
import type { Entity } from "@/lib/core/dataset/release-schema";
import { synthesizePredictions } from "@/testing/synthetic/synth-predictions";
import { synthesizeRelease } from "@/testing/synthetic/synth-release";
import type { ReleaseContent } from "@/lib/core/dataset/validate-release";

// The protocol's norm() and tiers (sections 5 and 6), written out here so the
// test does not depend on the scoring code.
function norm(text: string): string {
  return text.normalize("NFKC").toLowerCase().trim().replace(/\s+/gu, " ");
}

function tokens(text: string): Set<string> {
  return new Set(norm(text).match(/[\p{L}\p{N}\p{M}]+/gu) ?? []);
}

function tier(prediction: string, gold: Entity): 1 | 2 | 3 | 4 | undefined {
  const p = norm(prediction);
  const name = norm(gold.name);
  if (p === name) return 1;
  if (gold.aliases.some((alias) => norm(alias) === p)) return 2;
  if (p.length > 0 && (name.includes(p) || p.includes(name))) return 3;
  const a = tokens(p);
  const b = tokens(name);
  const intersection = [...a].filter((token) => b.has(token)).length;
  const union = new Set([...a, ...b]).size;
  if (union > 0 && intersection / union >= 0.5) return 4;
  return undefined;
}

type OpenLine = { id: string; prediction: string };
type ClosedLine = { id: string; ranking: string[] };

describe("synthesizePredictions", () => {
  let release: ReleaseContent;
  let entityByQid: Map<string, Entity>;

  beforeAll(() => {
    release = synthesizeRelease({ seed: 11, size: "small" });
    entityByQid = new Map(release.entities.map((entity) => [entity.qid, entity]));
  });

  function goldOf(qid: string): Entity {
    const entity = entityByQid.get(qid);
    if (entity === undefined) throw new Error(`no entity ${qid}`);
    return entity;
  }

  it("open track: one line per sample in order, about `accuracy` exact, and all four tiers", () => {
    const samples = release.samples.train;
    const lines = synthesizePredictions({ samples, entities: release.entities, track: "open", accuracy: 0.35, seed: 1 });
    expect(lines).toHaveLength(samples.length);
    const parsed = lines.map((line) => JSON.parse(line) as OpenLine);
    expect(parsed.map((line) => line.id)).toEqual(samples.map((sample) => sample.id));
    const tiers = parsed.map((line, index) => tier(line.prediction, goldOf(samples[index]?.qid ?? "")));
    const share = (t: number | undefined) => tiers.filter((value) => value === t).length / tiers.length;
    // 899 samples: the standard error of a 0.35 share is about 0.016
    expect(share(1)).toBeGreaterThan(0.3);
    expect(share(1)).toBeLessThan(0.4);
    expect(share(2)).toBeGreaterThan(0);
    expect(share(3)).toBeGreaterThan(0);
    expect(share(4)).toBeGreaterThan(0);
    expect(share(undefined)).toBeGreaterThan(0.3);
    expect(parsed.some((line) => line.prediction === "")).toBe(true);
  });

  it("closed track: distinct KB QIDs, gold first for about `accuracy`, lower for some, absent for the rest", () => {
    const samples = release.samples.train;
    const lines = synthesizePredictions({ samples, entities: release.entities, track: "closed", accuracy: 0.4, seed: 2 });
    const parsed = lines.map((line) => JSON.parse(line) as ClosedLine);
    const kb = new Set(release.entities.map((entity) => entity.qid));
    const ranks = parsed.map((line, index) => {
      expect(line.id).toBe(samples[index]?.id);
      expect(line.ranking).toHaveLength(100);
      expect(new Set(line.ranking).size).toBe(100);
      expect(line.ranking.every((qid) => kb.has(qid))).toBe(true);
      const position = line.ranking.indexOf(samples[index]?.qid ?? "");
      return position < 0 ? undefined : position + 1;
    });
    const first = ranks.filter((rank) => rank === 1).length / ranks.length;
    expect(first).toBeGreaterThan(0.35);
    expect(first).toBeLessThan(0.45);
    expect(ranks.some((rank) => rank !== undefined && rank > 1 && rank <= 10)).toBe(true);
    expect(ranks.some((rank) => rank === undefined)).toBe(true);
  });

  it("closed track honours rankingLength", () => {
    const lines = synthesizePredictions({
      samples: release.samples.dev,
      entities: release.entities,
      track: "closed",
      accuracy: 0,
      seed: 3,
      rankingLength: 5,
    });
    expect(lines.every((line) => (JSON.parse(line) as ClosedLine).ranking.length === 5)).toBe(true);
  });

  it("is deterministic for a seed", () => {
    const options = { samples: release.samples.dev, entities: release.entities, track: "open" as const, accuracy: 0.5, seed: 9 };
    expect(synthesizePredictions(options)).toEqual(synthesizePredictions(options));
    expect(synthesizePredictions({ ...options, seed: 10 })).not.toEqual(synthesizePredictions(options));
  });

  it("answers every sample exactly at accuracy 1 and never at accuracy 0", () => {
    const samples = release.samples.test;
    const all = synthesizePredictions({ samples, entities: release.entities, track: "open", accuracy: 1, seed: 4 });
    expect(all.every((line, index) => tier((JSON.parse(line) as OpenLine).prediction, goldOf(samples[index]?.qid ?? "")) === 1)).toBe(true);
    const none = synthesizePredictions({ samples, entities: release.entities, track: "closed", accuracy: 0, seed: 4 });
    expect(none.every((line, index) => (JSON.parse(line) as ClosedLine).ranking[0] !== samples[index]?.qid)).toBe(true);
  });

  it("rejects an accuracy outside [0, 1] and a bad ranking length", () => {
    const base = { samples: release.samples.dev, entities: release.entities, seed: 1 };
    expect(() => synthesizePredictions({ ...base, track: "open", accuracy: 1.5 })).toThrow(/accuracy/);
    expect(() => synthesizePredictions({ ...base, track: "closed", accuracy: 0.5, rankingLength: 101 })).toThrow(/rankingLength/);
  });
});
