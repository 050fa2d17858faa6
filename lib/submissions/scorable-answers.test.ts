import { describe, expect, it } from "vitest";
import { buildKbIndex } from "@/lib/scoring/gold";
import { norm } from "@/lib/scoring/normalize";
import { openWorldTier, prepareOpenGold } from "@/lib/scoring/open-world";
import { createPrng } from "@/lib/scoring/prng";
import { buildScorableAnswers, couldOpenAnswerScore, scorableRanking } from "@/lib/submissions/scorable-answers";

/**
 * Q1, Q2, Q4 are test candidates; Q3, Q5, Q6 are train or dev entities.
 * Q5's name is an alias of the candidate Q2.
 */
const KB = buildKbIndex([
  { qid: "Q1", name: "Attack on Pearl Harbor", type: "Event", aliases: ["Pearl Harbor attack"] },
  { qid: "Q2", name: "Paris", type: "Place", aliases: ["City of Light"] },
  { qid: "Q3", name: "Apollo 11", type: "Event", aliases: [] },
  { qid: "Q4", name: "Battle of the Bulge", type: "Event", aliases: ["Ardennes Offensive"] },
  { qid: "Q5", name: "City of Light", type: "Work", aliases: [] },
  { qid: "Q6", name: "Berlin", type: "Place", aliases: ["Spree Athens"] },
]);
const KNOWN = new Set(["Q3", "Q5", "Q6"]);
const scorable = buildScorableAnswers(KB, KNOWN);

function couldScore(prediction: string): boolean {
  return couldOpenAnswerScore(norm(prediction), scorable);
}

describe("buildScorableAnswers", () => {
  it("takes as test candidates the KB entities of no train or dev sample", () => {
    expect([...scorable.candidateQids].sort()).toEqual(["Q1", "Q2", "Q4"]);
    expect([...scorable.candidateNames].sort()).toEqual([
      "ardennes offensive",
      "attack on pearl harbor",
      "battle of the bulge",
      "city of light",
      "paris",
      "pearl harbor attack",
    ]);
  });
});

describe("couldOpenAnswerScore (§6 tiers against every candidate)", () => {
  it("tiers 1 and 2: a candidate's name or alias, after norm()", () => {
    expect(couldScore("  ATTACK on pearl   Harbor")).toBe(true);
    expect(couldScore("Pearl Harbor attack")).toBe(true);
    expect(couldScore("ardennes offensive")).toBe(true);
  });

  it("tier 3: the prediction a run of a candidate name's tokens, or the name a run of the prediction's", () => {
    expect(couldScore("Pearl Harbor")).toBe(true);
    // "of" is a whole token of "Battle of the Bulge"
    expect(couldScore("of")).toBe(true);
    expect(couldScore("the Attack on Pearl Harbor, 1941")).toBe(true);
    expect(couldScore("paris france")).toBe(true);
  });

  it("tier 4: at least half of the union of tokens shared", () => {
    // {harbor, attack, pearl} vs {attack, on, pearl, harbor}: 3 of 4
    expect(couldScore("harbor attack pearl")).toBe(true);
    // {bulge, battle} vs {battle, of, the, bulge}: 2 of 4
    expect(couldScore("bulge battle")).toBe(true);
    // {bulge, xyzzy} vs {battle, of, the, bulge}: 1 of 5
    expect(couldScore("bulge xyzzy")).toBe(false);
  });

  it("names of train and dev entities and nonsense cannot score", () => {
    expect(couldScore("Apollo 11")).toBe(false);
    expect(couldScore("Berlin")).toBe(false);
    expect(couldScore("Spree Athens")).toBe(false);
    expect(couldScore("zzq7x12")).toBe(false);
    expect(couldScore("France")).toBe(false);
    // "par" is no whole token of "Paris" (v1.1)
    expect(couldScore("par")).toBe(false);
  });

  it("an empty prediction or one without tokens meets no tier", () => {
    expect(couldScore("")).toBe(false);
    expect(couldScore("   ")).toBe(false);
    expect(couldScore("!!!")).toBe(false);
  });

  it("decides as openWorldTier against every candidate does, for random predictions over the KB's tokens", () => {
    const vocabulary = ["attack", "on", "pearl", "harbor", "paris", "city", "of", "light", "apollo", "11", "battle", "the", "bulge", "ardennes", "offensive", "berlin", "zzq", "x"];
    const candidates = [...KB].filter(([qid]) => !KNOWN.has(qid)).map(([, entity]) => prepareOpenGold(entity.name, entity.aliases));
    const prng = createPrng(2026);
    let scoring = 0;
    for (let trial = 0; trial < 3000; trial += 1) {
      const length = 1 + prng.nextIndex(6);
      const words = Array.from({ length }, () => vocabulary[prng.nextIndex(vocabulary.length)] ?? "");
      const prediction = words.join(prng.nextIndex(2) === 0 ? " " : ", ");
      const expected = candidates.some((gold) => openWorldTier(prediction, gold) !== null);
      if (expected) scoring += 1;
      expect(couldScore(prediction), prediction).toBe(expected);
    }
    // both outcomes are exercised
    expect(scoring).toBeGreaterThan(300);
    expect(scoring).toBeLessThan(2700);
  });
});

describe("scorableRanking (§7)", () => {
  it("keeps the position and QID of every candidate and drops train and dev entities", () => {
    expect(scorableRanking(["Q3", "Q1", "Q6", "Q2"], scorable)).toEqual(["2:Q1", "4:Q2"]);
    expect(scorableRanking(["Q1"], scorable)).toEqual(["1:Q1"]);
  });

  it("keeps a non-candidate top whose name is a candidate's name or alias (alias_hit@1), only at the top", () => {
    expect(scorableRanking(["Q5", "Q3"], scorable)).toEqual(["1:Q5"]);
    expect(scorableRanking(["Q3", "Q5"], scorable)).toEqual([]);
  });

  it("keys only the first ten positions: below them a candidate moves no number the owner sees", () => {
    // Q1 and Q2 are candidates, Q3 and Q6 train/dev entities: Q1 at position 10 is kept, Q2 at 11 is not.
    const ranking = ["Q3", "Q6", "Q3", "Q6", "Q3", "Q6", "Q3", "Q6", "Q3", "Q1", "Q2"];
    expect(scorableRanking(ranking, scorable)).toEqual(["10:Q1"]);
    expect(scorableRanking([...ranking.slice(0, 9), "Q6", "Q2", "Q1"], scorable)).toEqual([]);
  });

  it("keeps nothing of a ranking made only of train and dev entities", () => {
    expect(scorableRanking(["Q6", "Q3"], scorable)).toEqual([]);
  });
});
