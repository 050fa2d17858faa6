import { describe, expect, it } from "vitest";
import { hasControlCharacters } from "@/lib/core/accounts/control-characters";
import { safeCallbackPath, signInErrorMessage, tooManyAttemptsCode } from "@/lib/core/accounts/sign-in-errors";

describe("signInErrorMessage", () => {
  it("says the same thing for every credentials failure", () => {
    expect(signInErrorMessage("CredentialsSignin")).toBe("Email or password is incorrect.");
  });

  it("turns the rate-limit code into minutes", () => {
    expect(tooManyAttemptsCode(899.2)).toBe("TooManyAttempts:900");
    expect(signInErrorMessage("TooManyAttempts:900")).toBe("Too many attempts, try again in 15 minutes.");
    expect(signInErrorMessage("TooManyAttempts:30")).toBe("Too many attempts, try again in 1 minute.");
  });

  it("maps unexpected failures to a message without internals", () => {
    expect(signInErrorMessage("SignInUnavailable")).toBe("Signing in is not working right now. Please try again in a few minutes.");
  });

  it("never echoes unknown text from the URL", () => {
    expect(signInErrorMessage("<script>alert(1)</script>")).toBe("Sign-in failed. Please try again.");
    expect(signInErrorMessage("TooManyAttempts:abc")).toBe("Sign-in failed. Please try again.");
    expect(signInErrorMessage(null)).toBeNull();
  });
});

describe("safeCallbackPath", () => {
  it("keeps same-site paths", () => {
    expect(safeCallbackPath("/account/tokens?x=1")).toBe("/account/tokens?x=1");
  });

  it("refuses other sites and odd values", () => {
    expect(safeCallbackPath("https://evil.example/")).toBe("/");
    expect(safeCallbackPath("//evil.example/")).toBe("/");
    expect(safeCallbackPath("/\\evil.example")).toBe("/");
    expect(safeCallbackPath("/a\nb")).toBe("/");
    expect(safeCallbackPath(undefined, "/account")).toBe("/account");
  });
});

describe("hasControlCharacters", () => {
  it("finds C0 and C1 controls, not ordinary text", () => {
    expect(hasControlCharacters("Ada Lovelace, Ph.D. (Zürich) 数学")).toBe(false);
    expect(hasControlCharacters("line\nbreak")).toBe(true);
    expect(hasControlCharacters("nul\u0000")).toBe(true);
    expect(hasControlCharacters("del\u007f")).toBe(true);
    expect(hasControlCharacters("c1\u0085")).toBe(true);
  });
});
