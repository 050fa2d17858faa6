import { describe, expect, it } from "vitest";
import { publicPageAddress } from "./page-queries";

function addressOf(target: string) {
  const queryAt = target.indexOf("?");
  return queryAt < 0 ? publicPageAddress(target, "") : publicPageAddress(target.slice(0, queryAt), target.slice(queryAt));
}

const canonical = (path: string) => ({ kind: "canonical", path });
const redirect = (path: string) => ({ kind: "redirect", path });

describe("publicPageAddress", () => {
  it("serves each view's canonical address as it is", () => {
    for (const path of [
      "/leaderboard",
      "/leaderboard?track=closed",
      "/leaderboard?approach=fine-tuned-llm&scope=all&tier=reproduced&track=unified&weights=yes",
      "/leaderboard?page=3&q=heron+x&sort=system&types=show",
      "/leaderboard?dir=asc&sort=alias",
      "/leaderboard?sort=type%3APerson&types=show",
      "/leaderboard/types/military-unit?track=closed",
      "/leaderboard/matrix?track=closed&type=person&weights=no",
      "/entries/cm1abc_DEF-2",
    ]) {
      expect(addressOf(path), path).toEqual(canonical(path));
    }
  });

  it("redirects explicit defaults, another order or spelling, and repeated parameters", () => {
    expect(addressOf("/leaderboard?track=open")).toEqual(redirect("/leaderboard"));
    expect(addressOf("/leaderboard?")).toEqual(redirect("/leaderboard"));
    expect(addressOf("/leaderboard?track=closed&scope=all")).toEqual(redirect("/leaderboard?scope=all&track=closed"));
    expect(addressOf("/leaderboard?scope=primary&entries=all&weights=any&q=&page=1&types=hide&reported=show")).toEqual(redirect("/leaderboard"));
    expect(addressOf("/leaderboard?page=02")).toEqual(redirect("/leaderboard?page=2"));
    expect(addressOf("/leaderboard?q=heron%20x")).toEqual(redirect("/leaderboard?q=heron+x"));
    expect(addressOf("/leaderboard?track=closed&track=open")).toEqual(redirect("/leaderboard?track=closed"));
    // The default direction of a column is dropped; a direction without a sort means nothing.
    expect(addressOf("/leaderboard?sort=alias&dir=desc")).toEqual(redirect("/leaderboard?sort=alias"));
    expect(addressOf("/leaderboard?sort=system&dir=asc")).toEqual(redirect("/leaderboard?sort=system"));
    expect(addressOf("/leaderboard?dir=asc")).toEqual(redirect("/leaderboard"));
    expect(addressOf("/leaderboard/types/Person?track=open")).toEqual(redirect("/leaderboard/types/person"));
    expect(addressOf("/leaderboard/types/MILITARY-UNIT")).toEqual(redirect("/leaderboard/types/military-unit"));
    expect(addressOf("/leaderboard/matrix?type=Person&track=open")).toEqual(redirect("/leaderboard/matrix?type=person"));
  });

  it("drops every parameter a page does not read and every value it would ignore", () => {
    expect(addressOf("/leaderboard?utm_source=x&track=closed")).toEqual(redirect("/leaderboard?track=closed"));
    expect(addressOf("/leaderboard?track=bogus&weights=maybe&page=0&sort=nothing&types=all")).toEqual(redirect("/leaderboard"));
    expect(addressOf(`/leaderboard?q=${"x".repeat(101)}`)).toEqual(redirect("/leaderboard"));
    expect(addressOf("/leaderboard?type=person")).toEqual(redirect("/leaderboard"));
    expect(addressOf("/leaderboard/matrix?q=x&scope=all&tier=bogus")).toEqual(redirect("/leaderboard/matrix"));
    expect(addressOf("/entries/abc?track=closed")).toEqual(redirect("/entries/abc"));
    expect(addressOf("/entries/abc?")).toEqual(redirect("/entries/abc"));
  });

  it("finds no page for an unknown entity type, a matrix of one, or a malformed entry id", () => {
    expect(addressOf("/leaderboard/types/nothing")).toEqual({ kind: "not-found" });
    expect(addressOf("/leaderboard/types/%E0%A4%A")).toEqual({ kind: "not-found" });
    expect(addressOf("/leaderboard/matrix?type=nothing")).toEqual({ kind: "not-found" });
    expect(addressOf("/entries/a%20b")).toEqual({ kind: "not-found" });
  });

  it("knows nothing of other paths", () => {
    expect(addressOf("/leaderboard/progress?track=open")).toBeNull();
    expect(addressOf("/entries")).toBeNull();
  });
});
