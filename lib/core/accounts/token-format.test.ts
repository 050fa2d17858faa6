import { describe, expect, it } from "vitest";
import { apiTokenDisplayPrefix, generateApiToken, hashApiToken, isApiTokenFormat } from "@/lib/core/accounts/token-format";

describe("generateApiToken", () => {
  it("makes ircb_ plus 43 base64url characters (32 random bytes)", () => {
    const { token } = generateApiToken();
    expect(token).toMatch(/^ircb_[A-Za-z0-9_-]{43}$/);
    expect(token).toHaveLength(48);
  });

  it("returns the SHA-256 hex of the token and an 11-character display prefix", () => {
    const { token, tokenHash, prefix } = generateApiToken();
    expect(tokenHash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokenHash).toBe(hashApiToken(token));
    expect(prefix).toBe(token.slice(0, 11));
    expect(prefix.startsWith("ircb_")).toBe(true);
  });

  it("never repeats", () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generateApiToken().token));
    expect(tokens.size).toBe(200);
  });
});

describe("hashApiToken", () => {
  it("is plain SHA-256 over the UTF-8 token", () => {
    // sha256("abc"), FIPS 180-2 appendix B.1
    expect(hashApiToken("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    // sha256("") is the well-known empty digest
    expect(hashApiToken("")).toBe("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  });
});

describe("isApiTokenFormat", () => {
  it("accepts only the exact shape", () => {
    const valid = `ircb_${"A".repeat(42)}-`;
    expect(isApiTokenFormat(valid)).toBe(true);
    expect(isApiTokenFormat(generateApiToken().token)).toBe(true);
    expect(isApiTokenFormat(`ircb_${"A".repeat(42)}`)).toBe(false);
    expect(isApiTokenFormat(`ircb_${"A".repeat(44)}`)).toBe(false);
    expect(isApiTokenFormat(`IRCB_${"A".repeat(43)}`)).toBe(false);
    expect(isApiTokenFormat(`ircb_${"A".repeat(42)}=`)).toBe(false);
    expect(isApiTokenFormat(`ircb_${"A".repeat(42)}+`)).toBe(false);
    expect(isApiTokenFormat("")).toBe(false);
  });
});

describe("apiTokenDisplayPrefix", () => {
  it("keeps the marker and six characters", () => {
    expect(apiTokenDisplayPrefix("ircb_abcdefghijk")).toBe("ircb_abcdef");
  });
});
