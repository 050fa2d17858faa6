import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { configPath, findSavedToken, normalizeServerUrl, readConfig, savedServerKeys, writeConfig } from "./config-file";

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "irc-client-config-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("the client's token file", () => {
  it("lives under IRC_BENCH_CONFIG, else XDG_CONFIG_HOME, else ~/.config", () => {
    const chosen = path.join(dir, "c.json");
    expect(configPath({ IRC_BENCH_CONFIG: chosen })).toBe(chosen);
    expect(configPath({ XDG_CONFIG_HOME: "/home/ada/.cfg", HOME: "/home/ada" })).toBe("/home/ada/.cfg/irc-bench/config.json");
    expect(configPath({ HOME: "/home/ada" })).toBe("/home/ada/.config/irc-bench/config.json");
  });

  it("is written with mode 600 in a mode 700 folder, also over an older file readable by all", async () => {
    const file = path.join(dir, "new", "config.json");
    await writeConfig(file, { servers: { "http://x": { token: "ircb_t", savedAt: "2026-12-01T00:00:00.000Z" } } });
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(file))).mode & 0o777).toBe(0o700);

    const old = path.join(dir, "old.json");
    await writeFile(old, "{}", { mode: 0o644 });
    await writeConfig(old, { servers: {} });
    expect((await stat(old)).mode & 0o777).toBe(0o600);
    expect(JSON.parse(await readFile(old, "utf8"))).toEqual({ servers: {} });
  });

  it("reads a missing file as empty and names the file when it is broken", async () => {
    expect(await readConfig(path.join(dir, "none.json"))).toEqual({ servers: {} });
    const broken = path.join(dir, "broken.json");
    await writeFile(broken, "{");
    await expect(readConfig(broken)).rejects.toMatchObject({ status: 2, lines: [`${broken}: is not JSON; delete it and run login again.`] });
    await writeFile(broken, '{"servers": {"http://x": {"token": 1}}}');
    await expect(readConfig(broken)).rejects.toMatchObject({ status: 2 });
  });

  it("keys servers by their URL without a trailing slash and refuses what is not http(s)", () => {
    expect(normalizeServerUrl("http://localhost:3000/")).toBe("http://localhost:3000");
    expect(normalizeServerUrl("https://bench.example.org/irc/")).toBe("https://bench.example.org/irc");
    expect(() => normalizeServerUrl("localhost:3000")).toThrow(/not an http\(s\) URL/);
    expect(() => normalizeServerUrl("nope")).toThrow(/is not a URL/);
  });

  it("finds a token saved for localhost under 127.0.0.1 and [::1] of the same port, the exact URL first, and nothing for another port or host", () => {
    const config = { servers: { "http://localhost:3000": { token: "local", savedAt: "" }, "https://bench.example": { token: "remote", savedAt: "" } } };
    expect(findSavedToken(config, "http://127.0.0.1:3000")).toBe("local");
    expect(findSavedToken(config, "http://[::1]:3000")).toBe("local");
    expect(findSavedToken(config, "http://127.0.0.1:3001")).toBeUndefined();
    expect(findSavedToken(config, "https://localhost:3000")).toBeUndefined();
    expect(findSavedToken(config, "https://bench.example")).toBe("remote");
    const both = { servers: { ...config.servers, "http://127.0.0.1:3000": { token: "numeric", savedAt: "" } } };
    expect(findSavedToken(both, "http://127.0.0.1:3000")).toBe("numeric");
    expect(savedServerKeys(both, "http://localhost:3000")).toEqual(["http://localhost:3000", "http://127.0.0.1:3000"]);
  });
});
