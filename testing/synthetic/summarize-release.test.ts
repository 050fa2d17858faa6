import { describe, expect, it } from "vitest";
import type { Entity, Sample } from "@/lib/core/dataset/release-schema";
import { summarizeRelease } from "@/testing/synthetic/summarize-release";
import { toGoldSample, toPublicTestSample } from "@/testing/synthetic/to-download-row";

function entity(qid: string, type: Entity["type"], aliases: string[] = []): Entity {
  return { qid, name: `name ${qid}`, type, aliases, description: "", description_wiki: "" };
}

function sample(id: string, qid: string, collection: string): Sample {
  return { id, qid, collection, implicit_text: "implicit", explicit_text: "explicit" };
}

describe("summarizeRelease", () => {
  it("counts samples and distinct entities per split, type and collection", () => {
    const summary = summarizeRelease({
      meta: { name: "x", version: "1", description: "" },
      entities: [entity("Q1", "Place", ["a"]), entity("Q2", "Person"), entity("Q3", "Place"), entity("Q4", "Event")],
      samples: {
        train: [sample("s1", "Q1", "Labor"), sample("s2", "Q1", "Veterans"), sample("s3", "Q2", "Custom")],
        dev: [sample("s4", "Q3", "Veterans")],
        test: [],
      },
    });
    expect(summary.kb).toEqual({
      entities: 4,
      withAliases: 1,
      byType: { Place: 2, Organization: 0, Person: 1, Event: 1, Work: 0, "Military Unit": 0, Other: 0 },
    });
    expect(summary.samples).toEqual({ train: 3, dev: 1, test: 0 });
    expect(summary.entities).toEqual({ train: 2, dev: 1, test: 0 });
    expect(summary.byType.Place).toEqual({ samples: { train: 2, dev: 1, test: 0 }, entities: { train: 1, dev: 1, test: 0 } });
    expect(summary.byType.Event).toEqual({ samples: { train: 0, dev: 0, test: 0 }, entities: { train: 0, dev: 0, test: 0 } });
    // paper collections in the paper's order (Veterans before Labor), others after
    expect(Object.keys(summary.byCollection)).toEqual(["Veterans", "Labor", "Custom"]);
    expect(summary.byCollection.Veterans).toEqual({ train: 1, dev: 1, test: 0 });
  });
});

describe("download rows", () => {
  it("joins the gold entity into a train/dev row", () => {
    const row = toGoldSample(sample("s1", "Q1", "Labor"), entity("Q1", "Place", ["Alias"]));
    expect(row).toEqual({
      id: "s1",
      qid: "Q1",
      name: "name Q1",
      type: "Place",
      aliases: ["Alias"],
      collection: "Labor",
      implicit_text: "implicit",
      explicit_text: "explicit",
    });
    expect(() => toGoldSample(sample("s1", "Q1", "Labor"), entity("Q2", "Place"))).toThrow();
  });

  it("keeps only id, collection and implicit_text for a public test row", () => {
    expect(toPublicTestSample(sample("s9", "Q1", "Labor"))).toEqual({ id: "s9", collection: "Labor", implicit_text: "implicit" });
  });
});
