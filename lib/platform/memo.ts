import { LRUCache } from "lru-cache";

/**
 * The one way this process keeps what it loaded (a release's KB, gold, names, dev split, a dev run):
 * lru-cache's fetch, so concurrent callers of one key share one load, a failed load is forgotten
 * (the next caller tries again), and at most `max` keys are kept, the least recently used dropped.
 */
export type MemoizedLoad<Value> = { get(key: string): Promise<Value>; clear(): void };

export function memoizeLoad<Value extends NonNullable<unknown>>(load: (key: string) => Promise<Value>, options: { max: number }): MemoizedLoad<Value> {
  const cache = new LRUCache<string, Value>({ max: options.max, fetchMethod: (key) => load(key) });
  return {
    async get(key) {
      const value = await cache.fetch(key);
      // fetchMethod resolves to a value or rejects: undefined would mean the entry was dropped while loading.
      return value ?? load(key);
    },
    clear: () => cache.clear(),
  };
}
