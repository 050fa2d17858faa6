import { describe, expect, it } from "vitest";
import {
  BASELINE_KEYS,
  computeBaselinePredictions,
  orderByTrainFrequency,
  type BaselineEntity,
  type BaselineRun,
  type BaselineSample,
} from "./compute-baselines";

/*
 * A four-entity KB. After tokenising (stop words out, plurals folded) the
 * documents of the two BM25 indexes are:
 *
 *   names         Q1 pearl harbor pearl harbour   Q2 hawaii
 *                 Q3 ellis island                 Q4 dust bowl dirty thirty
 *   descriptions  names plus
 *                 Q1 naval base hawaii / pearl harbor lagoon harbor island oahu
 *                 Q2 state united state           Q3 immigration station new york harbor
 *                 Q4 period severe dust storm
 *
 * Train gold: Q4 twice, Q2 once, so the prior order is Q4, Q2, then Q1, Q3 in KB order.
 */
const KB: BaselineEntity[] = [
  {
    qid: "Q1",
    name: "Pearl Harbor",
    aliases: ["Pearl Harbour"],
    description: "naval base in Hawaii",
    description_wiki: "Pearl Harbor is a lagoon harbor on the island of Oahu.",
  },
  { qid: "Q2", name: "Hawaii", aliases: [], description: "state of the United States", description_wiki: "" },
  { qid: "Q3", name: "Ellis Island", aliases: [], description: "immigration station in New York harbor", description_wiki: "" },
  { qid: "Q4", name: "Dust Bowl", aliases: ["Dirty Thirties"], description: "period of severe dust storms", description_wiki: "" },
];
const TRAIN = [{ qid: "Q4" }, { qid: "Q2" }, { qid: "Q4" }, { qid: "Q999" }];
const PRIOR = ["Q4", "Q2", "Q1", "Q3"];

const SAMPLES: BaselineSample[] = [
  // names: only Q1 shares "harbor". descriptions: Q1 shares naval, base, oahu
  // and harbor (3 times), Q3 only harbor, so Q1 then Q3.
  { id: "s1", implicit_text: "We sailed past the naval base near Oahu, the harbor was full of ships." },
  // names: nothing matches. descriptions: only Q3 shares station, new, york.
  { id: "s2", implicit_text: "My grandmother arrived by ship and waited in line at the station in New York." },
  // No word of this text is in the KB.
  { id: "s3", implicit_text: "Zzyzx qwerty." },
];

function runOf(runs: BaselineRun[], key: BaselineRun["key"]): BaselineRun {
  const found = runs.find((run) => run.key === key);
  if (found === undefined) {
    throw new Error(`no run ${key}`);
  }
  return found;
}

function rankingsOf(run: BaselineRun): string[][] {
  return run.lines.map((line) => (JSON.parse(line) as { ranking: string[] }).ranking);
}

describe("computeBaselinePredictions", () => {
  const runs = computeBaselinePredictions({ entities: KB, trainSamples: TRAIN, samples: SAMPLES });

  it("returns the four baselines with their track, label and description", () => {
    expect(runs.map((run) => run.key)).toEqual([...BASELINE_KEYS]);
    expect(runs.map((run) => run.track)).toEqual(["closed", "closed", "open", "closed"]);
    expect(runOf(runs, "bm25-names").label).toBe("BM25 over entity names (C1-style)");
    for (const run of runs) {
      expect(run.label.length).toBeGreaterThan(0);
      expect(run.description).toContain(" ");
      expect(run.lines).toHaveLength(SAMPLES.length);
    }
  });

  it("writes protocol section 4 lines, one per sample in sample order", () => {
    expect(runOf(runs, "bm25-names").lines[0]).toBe('{"id":"s1","ranking":["Q1","Q4","Q2","Q3"]}');
    expect(runOf(runs, "bm25-open").lines).toEqual([
      '{"id":"s1","prediction":"Pearl Harbor"}',
      '{"id":"s2","prediction":"Ellis Island"}',
      '{"id":"s3","prediction":""}',
    ]);
  });

  it("ranks names, then pads with the prior without repeating a QID", () => {
    expect(rankingsOf(runOf(runs, "bm25-names"))).toEqual([
      ["Q1", "Q4", "Q2", "Q3"],
      PRIOR,
      PRIOR,
    ]);
  });

  it("ranks names and descriptions, then pads with the prior", () => {
    expect(rankingsOf(runOf(runs, "bm25-descriptions"))).toEqual([
      ["Q1", "Q3", "Q4", "Q2"],
      ["Q3", "Q4", "Q2", "Q1"],
      PRIOR,
    ]);
  });

  it("gives every sample the train-frequency prior", () => {
    expect(rankingsOf(runOf(runs, "prior-train-frequency"))).toEqual([PRIOR, PRIOR, PRIOR]);
  });

  it("truncates rankings to rankingLength", () => {
    const short = computeBaselinePredictions({ entities: KB, trainSamples: TRAIN, samples: SAMPLES, rankingLength: 2 });
    expect(rankingsOf(runOf(short, "bm25-names"))).toEqual([["Q1", "Q4"], ["Q4", "Q2"], ["Q4", "Q2"]]);
    expect(rankingsOf(runOf(short, "bm25-descriptions"))).toEqual([["Q1", "Q3"], ["Q3", "Q4"], ["Q4", "Q2"]]);
    expect(rankingsOf(runOf(short, "prior-train-frequency"))[0]).toEqual(["Q4", "Q2"]);
    expect(runOf(short, "bm25-names").description).toContain("top 2");
  });

  it("orders by KB order when there is no train split", () => {
    const noTrain = computeBaselinePredictions({ entities: KB, trainSamples: [], samples: SAMPLES });
    expect(rankingsOf(runOf(noTrain, "prior-train-frequency"))[0]).toEqual(["Q1", "Q2", "Q3", "Q4"]);
    expect(rankingsOf(runOf(noTrain, "bm25-descriptions"))[1]).toEqual(["Q3", "Q1", "Q2", "Q4"]);
  });

  it("is deterministic", () => {
    expect(computeBaselinePredictions({ entities: KB, trainSamples: TRAIN, samples: SAMPLES })).toEqual(runs);
  });

  it("keeps rankings distinct when the KB repeats a QID (first entity wins)", () => {
    const repeated: BaselineEntity[] = [
      ...KB,
      { qid: "Q3", name: "Another Ellis", aliases: [], description: "station in New York", description_wiki: "" },
    ];
    const result = computeBaselinePredictions({ entities: repeated, trainSamples: [], samples: SAMPLES });
    for (const ranking of rankingsOf(runOf(result, "bm25-descriptions"))) {
      expect(ranking).toHaveLength(4);
      expect(new Set(ranking).size).toBe(4);
    }
    expect(runOf(result, "bm25-open").lines[1]).toBe('{"id":"s2","prediction":"Ellis Island"}');
  });

  it("clips an open prediction to 512 code points", () => {
    const longName = "\u{1D538}".repeat(600);
    const result = computeBaselinePredictions({
      entities: [{ qid: "Q7", name: longName, aliases: ["zebra"], description: "", description_wiki: "" }],
      trainSamples: [],
      samples: [{ id: "z", implicit_text: "a zebra" }],
    });
    const { prediction } = JSON.parse(runOf(result, "bm25-open").lines[0] ?? "{}") as { prediction: string };
    expect(Array.from(prediction)).toHaveLength(512);
  });

  it("returns no lines for no samples", () => {
    const empty = computeBaselinePredictions({ entities: KB, trainSamples: TRAIN, samples: [] });
    expect(empty.map((run) => run.lines)).toEqual([[], [], [], []]);
  });

  it("refuses an empty KB and a ranking length outside 1-100", () => {
    expect(() => computeBaselinePredictions({ entities: [], trainSamples: [], samples: SAMPLES })).toThrow(/empty KB/);
    for (const rankingLength of [0, 101, 1.5]) {
      expect(() => computeBaselinePredictions({ entities: KB, trainSamples: [], samples: SAMPLES, rankingLength })).toThrow(
        /rankingLength/,
      );
    }
  });
});

describe("orderByTrainFrequency", () => {
  it("puts frequent train gold first, ties and unseen entities in KB order, and ignores unknown QIDs", () => {
    const trainSamples = [{ qid: "Q3" }, { qid: "Q2" }, { qid: "Q3" }, { qid: "Q2" }, { qid: "Q4" }, { qid: "Q8" }];
    expect(orderByTrainFrequency(KB, trainSamples)).toEqual(["Q2", "Q3", "Q4", "Q1"]);
  });
});

/** A seeded linear congruential generator (Numerical Recipes constants), so the test is reproducible. */
function createLcg(seed: number): (n: number) => number {
  let state = seed >>> 0;
  return (n) => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return Math.floor((state / 4294967296) * n);
  };
}

describe("computeBaselinePredictions at KB scale", () => {
  it("writes valid files for 12,000 entities and 500 queries", () => {
    const next = createLcg(20240601);
    const vocabulary = Array.from({ length: 5000 }, (_, i) => `w${i.toString(36)}`);
    const words = (count: number): string =>
      Array.from({ length: count }, () => vocabulary[next(vocabulary.length)] ?? "").join(" ");
    const entities: BaselineEntity[] = Array.from({ length: 12_000 }, (_, i) => ({
      qid: `Q${i + 1}`,
      name: words(1 + next(3)),
      aliases: Array.from({ length: next(3) }, () => words(2)),
      description: words(next(8)),
      description_wiki: next(4) === 0 ? "" : words(10 + next(20)),
    }));
    const samples: BaselineSample[] = Array.from({ length: 500 }, (_, i) => ({
      id: `irc-${i}`,
      implicit_text: words(60 + next(90)),
    }));
    const trainSamples = Array.from({ length: 3000 }, () => ({ qid: `Q${1 + next(12_000)}` }));

    const runs = computeBaselinePredictions({ entities, trainSamples, samples });
    const kb = new Set(entities.map((entity) => entity.qid));
    const names = new Set(entities.map((entity) => entity.name));
    for (const run of runs) {
      expect(run.lines).toHaveLength(samples.length);
      run.lines.forEach((line, i) => {
        const parsed = JSON.parse(line) as { id: string; ranking?: string[]; prediction?: string };
        expect(parsed.id).toBe(samples[i]?.id);
        if (run.track === "open") {
          expect(Object.keys(parsed)).toEqual(["id", "prediction"]);
          expect(parsed.prediction === "" || names.has(parsed.prediction ?? "")).toBe(true);
          return;
        }
        expect(Object.keys(parsed)).toEqual(["id", "ranking"]);
        const ranking = parsed.ranking ?? [];
        expect(ranking).toHaveLength(100);
        expect(new Set(ranking).size).toBe(100);
        expect(ranking.every((qid) => kb.has(qid))).toBe(true);
      });
    }
  }, 60_000); // CPU-bound at KB scale: a loaded 2-core machine needs more than the default 5 s
});
