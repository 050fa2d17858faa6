import { describe, expect, it } from "vitest";
import { buildKbIndex } from "@/lib/scoring/gold";
import { norm } from "@/lib/scoring/normalize";
import { openWorldTier, prepareOpenGold } from "@/lib/scoring/open-world";
import { createPrng } from "@/lib/scoring/prng";
import { buildScorableAnswers, closedOutcomeKeys, openOutcomeKeys } from "@/lib/submissions/scorable-answers";

/**
 * Q1, Q2, Q4 are test candidates (indices 0, 1, 2); Q3, Q5, Q6, Q7 are train
 * or dev entities. Q5's and Q7's name is an alias of the candidate Q2.
 */
const KB = buildKbIndex([
  { qid: "Q1", name: "Attack on Pearl Harbor", type: "Event", aliases: ["Pearl Harbor attack"] },
  { qid: "Q2", name: "Paris", type: "Place", aliases: ["City of Light"] },
  { qid: "Q3", name: "Apollo 11", type: "Event", aliases: [] },
  { qid: "Q4", name: "Battle of the Bulge", type: "Event", aliases: ["Ardennes Offensive"] },
  { qid: "Q5", name: "City of Light", type: "Work", aliases: [] },
  { qid: "Q6", name: "Berlin", type: "Place", aliases: ["Spree Athens"] },
  { qid: "Q7", name: "city of  LIGHT", type: "Work", aliases: [] },
]);
const KNOWN = new Set(["Q3", "Q5", "Q6", "Q7"]);
const scorable = buildScorableAnswers(KB, KNOWN);

const open = (prediction: string) => openOutcomeKeys(norm(prediction), scorable);
const closed = (ranking: string[]) => closedOutcomeKeys(ranking, scorable);

describe("buildScorableAnswers", () => {
  it("takes as test candidates the KB entities of no train or dev sample, indexed in KB order", () => {
    expect([...scorable.candidateIndexOfQid]).toEqual([
      ["Q1", 0],
      ["Q2", 1],
      ["Q4", 2],
    ]);
    expect([...scorable.byNameOrAlias.keys()].sort()).toEqual([
      "ardennes offensive",
      "attack on pearl harbor",
      "battle of the bulge",
      "city of light",
      "paris",
      "pearl harbor attack",
    ]);
  });
});

describe("openOutcomeKeys (§6: exact, alias, contain, jaccard)", () => {
  it("tiers 1 and 2: a candidate's name or alias, after norm()", () => {
    expect(open("  ATTACK on pearl   Harbor")).toEqual(["0", "0", "0", "0"]);
    expect(open("Pearl Harbor attack")).toEqual(["", "0", "0", "0"]);
    // An alias of Q2: tiers 2 to 4 for Q2 only (its "of" does not make Q4's name a run of it, nor it a run of Q4's name).
    expect(open("City of Light")).toEqual(["", "1", "1", "1"]);
  });

  it("tier 3: the prediction a run of a candidate name's tokens, or the name a run of the prediction's", () => {
    expect(open("Pearl Harbor")).toEqual(["", "", "0", "0"]);
    // "of" is a whole token of "Battle of the Bulge"
    expect(open("of")).toEqual(["", "", "2", "2"]);
    expect(open("the Attack on Pearl Harbor, 1941")).toEqual(["", "", "0", "0"]);
    expect(open("paris france")).toEqual(["", "", "1", "1"]);
  });

  it("tier 4: at least half of the union of tokens shared", () => {
    // {harbor, attack, pearl} vs {attack, on, pearl, harbor}: 3 of 4
    expect(open("harbor attack pearl")).toEqual(["", "", "", "0"]);
    // {bulge, battle} vs {battle, of, the, bulge}: 2 of 4
    expect(open("bulge battle")).toEqual(["", "", "", "2"]);
    // {bulge, xyzzy} vs {battle, of, the, bulge}: 1 of 5
    expect(open("bulge xyzzy")).toEqual(["", "", "", ""]);
  });

  it("names of train and dev entities, nonsense, and answers without tokens count for nobody", () => {
    for (const prediction of ["Apollo 11", "Berlin", "Spree Athens", "zzq7x12", "France", "par", "", "   ", "!!!"]) {
      expect(open(prediction), prediction).toEqual(["", "", "", ""]);
    }
  });

  it("agrees with openWorldTier against every candidate, metric by metric, for random predictions over the KB's tokens", () => {
    const vocabulary = ["attack", "on", "pearl", "harbor", "paris", "city", "of", "light", "apollo", "11", "battle", "the", "bulge", "ardennes", "offensive", "berlin", "zzq", "x"];
    const candidates = [...KB].filter(([qid]) => !KNOWN.has(qid)).map(([, entity]) => prepareOpenGold(entity.name, entity.aliases));
    const prng = createPrng(2026);
    let scoring = 0;
    for (let trial = 0; trial < 3000; trial += 1) {
      const length = 1 + prng.nextIndex(6);
      const words = Array.from({ length }, () => vocabulary[prng.nextIndex(vocabulary.length)] ?? "");
      const prediction = words.join(prng.nextIndex(2) === 0 ? " " : ", ");
      const tiers = candidates.map((gold) => openWorldTier(prediction, gold));
      // Metric m (tier 1 to 4) counts a candidate whose tier is at most m.
      const expected = [1, 2, 3, 4].map((metric) => tiers.flatMap((tier, index) => (tier !== null && tier <= metric ? [index] : [])).join(","));
      if (expected[3] !== "") scoring += 1;
      expect(open(prediction), prediction).toEqual(expected);
    }
    // both outcomes are exercised
    expect(scoring).toBeGreaterThan(300);
    expect(scoring).toBeLessThan(2700);
  });
});

describe("closedOutcomeKeys (§7: hit@1, hit@3, hit@5, hit@10, mrr, alias_hit@1)", () => {
  it("keeps the candidates in the first k places, and every candidate's place for MRR", () => {
    expect(closed(["Q3", "Q1", "Q6", "Q2"])).toEqual(["", "0", "0,1", "0,1", "2:0 4:1", ""]);
    expect(closed(["Q1"])).toEqual(["0", "0", "0", "0", "1:0", "0"]);
  });

  it("alias_hit@1: a candidate on top, or another entity whose name is a candidate's name or alias, only at the top", () => {
    expect(closed(["Q5", "Q3"])).toEqual(["", "", "", "", "", "1"]);
    expect(closed(["Q3", "Q5"])).toEqual(["", "", "", "", "", ""]);
  });

  it("two train entities of one name on top are the same answer", () => {
    expect(closed(["Q7", "Q3"])).toEqual(closed(["Q5", "Q6"]));
  });

  it("a ranking made only of train and dev entities is no answer", () => {
    expect(closed(["Q6", "Q3"])).toEqual(["", "", "", "", "", ""]);
  });
});
