import { describe, expect, it } from "vitest";
import { apportion, createSeededRandom } from "@/testing/synthetic/seeded-random";

describe("apportion (largest remainder)", () => {
  it("splits a total proportionally and exactly", () => {
    // 10 x (1, 1, 1) / 3 = 3.33 each: the first weight gets the leftover
    expect(apportion(10, [1, 1, 1])).toEqual([4, 3, 3]);
    // 100 x (70, 10, 20) / 100
    expect(apportion(100, [70, 10, 20])).toEqual([70, 10, 20]);
    // 7 x (0.5, 0.3, 0.2) = 3.5, 2.1, 1.4: floors 3, 2, 1 and the 1 left goes to 3.5
    expect(apportion(7, [0.5, 0.3, 0.2])).toEqual([4, 2, 1]);
    expect(apportion(0, [3, 4])).toEqual([0, 0]);
  });

  it("refuses weights that sum to zero", () => {
    expect(() => apportion(5, [0, 0])).toThrow();
  });
});

describe("createSeededRandom", () => {
  it("repeats a sequence for a seed and differs for another", () => {
    const a = createSeededRandom(42);
    const b = createSeededRandom(42);
    const c = createSeededRandom(43);
    const first = Array.from({ length: 5 }, () => a.next());
    expect(Array.from({ length: 5 }, () => b.next())).toEqual(first);
    expect(Array.from({ length: 5 }, () => c.next())).not.toEqual(first);
    expect(first.every((value) => value >= 0 && value < 1)).toBe(true);
  });

  it("shuffles without losing items and picks from the array", () => {
    const random = createSeededRandom(1);
    const items = Array.from({ length: 50 }, (_, index) => index);
    const shuffled = random.shuffle(items);
    expect([...shuffled].sort((x, y) => x - y)).toEqual(items);
    expect(shuffled).not.toEqual(items);
    expect(items).toContain(random.pick(items));
    expect(() => random.pick([])).toThrow();
  });

  it("draws integers in range, roughly uniformly", () => {
    const random = createSeededRandom(7);
    const counts = [0, 0, 0, 0];
    for (let i = 0; i < 4000; i += 1) {
      const value = random.int(4);
      counts[value] = (counts[value] ?? 0) + 1;
    }
    expect(counts.every((count) => count > 900 && count < 1100)).toBe(true);
  });
});
