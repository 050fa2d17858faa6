import { describe, expect, it } from "vitest";
import { assertTestDatabase, assertTestRedis } from "./local-database";

/** The helpers that truncate tables and flush Redis refuse anything but local test services. */
describe("test-service guards", () => {
  it("accept a local *_test database and refuse any other", () => {
    expect(() => assertTestDatabase("postgresql://irc:irc@127.0.0.1:54329/irc_bench_test")).not.toThrow();
    expect(() => assertTestDatabase("postgresql://irc:irc@localhost:5432/x_test")).not.toThrow();
    expect(() => assertTestDatabase("postgresql://irc:irc@127.0.0.1:54329/irc_bench")).toThrow(/_test/);
    expect(() => assertTestDatabase("postgresql://irc:irc@db.example.org:5432/irc_bench_test")).toThrow(/local/);
    expect(() => assertTestDatabase("postgresql://irc:irc@127.0.0.1:54329/irc_bench_test_copy")).toThrow();
  });

  it("accept a local Redis logical db other than 0 and refuse db 0 or a remote host", () => {
    expect(() => assertTestRedis("redis://127.0.0.1:63799/1")).not.toThrow();
    expect(() => assertTestRedis("redis://127.0.0.1:63799")).toThrow(/db 1/);
    expect(() => assertTestRedis("redis://127.0.0.1:63799/0")).toThrow(/db 1/);
    expect(() => assertTestRedis("redis://cache.example.org:6379/1")).toThrow(/local/);
  });
});
