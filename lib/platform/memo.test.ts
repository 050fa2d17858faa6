import { describe, expect, it } from "vitest";
import { memoizeLoad } from "@/lib/platform/memo";

describe("memoizeLoad", () => {
  it("loads a key once for concurrent and later callers", async () => {
    let loads = 0;
    const memo = memoizeLoad(async (key: string) => {
      loads += 1;
      await new Promise((resolve) => setTimeout(resolve, 5));
      return `value of ${key}`;
    }, { max: 4 });
    const [a, b] = await Promise.all([memo.get("x"), memo.get("x")]);
    expect([a, b, await memo.get("x")]).toEqual(["value of x", "value of x", "value of x"]);
    expect(loads).toBe(1);
  });

  it("forgets a failed load, so the next caller tries again", async () => {
    let attempt = 0;
    const memo = memoizeLoad(async () => {
      attempt += 1;
      if (attempt === 1) throw new Error("database away");
      return attempt;
    }, { max: 4 });
    await expect(memo.get("k")).rejects.toThrow("database away");
    expect(await memo.get("k")).toBe(2);
    expect(await memo.get("k")).toBe(2);
  });

  it("keeps at most max keys, the least recently used dropped, and clear forgets all", async () => {
    const loaded: string[] = [];
    const memo = memoizeLoad(async (key: string) => {
      loaded.push(key);
      return key;
    }, { max: 2 });
    await memo.get("a");
    await memo.get("b");
    await memo.get("a");
    await memo.get("c");
    await memo.get("a");
    await memo.get("b");
    expect(loaded).toEqual(["a", "b", "c", "b"]);
    memo.clear();
    await memo.get("a");
    expect(loaded.at(-1)).toBe("a");
    expect(loaded).toHaveLength(5);
  });
});
