import { describe, expect, it } from "vitest";
import { generatePassword, hashPassword, needsRehash, parsePasswordHash, verifyPassword } from "@/lib/domain/accounts/password";

// Small parameters keep the suite fast; the format and logic are the same.
const FAST = { N: 1024, r: 8, p: 1 };

describe("hashPassword", () => {
  it("stores the scheme, the parameters, a 16-byte salt and a 32-byte key", async () => {
    const stored = await hashPassword("correct horse battery", FAST);
    const parts = stored.split("$");
    expect(parts).toHaveLength(6);
    expect(parts.slice(0, 4)).toEqual(["scrypt", "1024", "8", "1"]);
    // base64url of 16 bytes is 22 characters, of 32 bytes 43 characters
    expect(parts[4]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(parts[5]).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it("uses a fresh random salt each time", async () => {
    const first = await hashPassword("same password", FAST);
    const second = await hashPassword("same password", FAST);
    expect(first).not.toBe(second);
  });

  it("never contains the password", async () => {
    const stored = await hashPassword("plain-text-secret", FAST);
    expect(stored).not.toContain("plain-text-secret");
  });
});

describe("verifyPassword", () => {
  it("accepts the right password and refuses a wrong one", async () => {
    const stored = await hashPassword("correct horse battery", FAST);
    await expect(verifyPassword("correct horse battery", stored)).resolves.toBe(true);
    await expect(verifyPassword("correct horse batterY", stored)).resolves.toBe(false);
    await expect(verifyPassword("", stored)).resolves.toBe(false);
  });

  it("treats canonically equivalent Unicode spellings as the same password", async () => {
    // "é" as one code point (U+00E9) and as e + combining acute (U+0065 U+0301)
    const stored = await hashPassword("caf\u00e9-password", FAST);
    await expect(verifyPassword("cafe\u0301-password", stored)).resolves.toBe(true);
  });

  it("verifies hashes made with the default parameters", async () => {
    const stored = await hashPassword("default parameters");
    expect(stored.startsWith("scrypt$32768$8$1$")).toBe(true);
    await expect(verifyPassword("default parameters", stored)).resolves.toBe(true);
  });

  it("refuses unreadable or hostile stored strings instead of throwing", async () => {
    await expect(verifyPassword("x", "")).resolves.toBe(false);
    await expect(verifyPassword("x", "bcrypt$10$abc")).resolves.toBe(false);
    await expect(verifyPassword("x", "scrypt$1000$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")).resolves.toBe(false);
    // N = 2^30 would need 1 TiB of memory: refused by the bounds check
    await expect(
      verifyPassword("x", "scrypt$1073741824$8$1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"),
    ).resolves.toBe(false);
  });
});

describe("parsePasswordHash and needsRehash", () => {
  it("reads the parameters back", async () => {
    const parsed = parsePasswordHash(await hashPassword("p", FAST));
    expect(parsed?.params).toEqual({ N: 1024, r: 8, p: 1 });
    expect(parsed?.salt.length).toBe(16);
    expect(parsed?.key.length).toBe(32);
  });

  it("flags hashes weaker than the defaults", async () => {
    expect(needsRehash(await hashPassword("p", FAST))).toBe(true);
    expect(needsRehash("not a hash")).toBe(true);
    expect(needsRehash(await hashPassword("p"))).toBe(false);
  });
});

describe("generatePassword", () => {
  it("gives 24 base64url characters (18 random bytes), different each time", () => {
    const first = generatePassword();
    expect(first).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(generatePassword()).not.toBe(first);
  });
});
