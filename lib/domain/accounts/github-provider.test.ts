import { describe, expect, it } from "vitest";
import { pickVerifiedEmail } from "@/lib/domain/accounts/github-provider";

describe("pickVerifiedEmail", () => {
  it("prefers the primary address when it is verified", () => {
    expect(
      pickVerifiedEmail([
        { email: "other@example.org", primary: false, verified: true },
        { email: "main@example.org", primary: true, verified: true },
      ]),
    ).toBe("main@example.org");
  });

  it("falls back to another verified address, never to an unverified one", () => {
    expect(
      pickVerifiedEmail([
        { email: "claimed@victim.example", primary: true, verified: false },
        { email: "backup@example.org", primary: false, verified: true },
      ]),
    ).toBe("backup@example.org");
    expect(pickVerifiedEmail([{ email: "claimed@victim.example", primary: true, verified: false }])).toBeNull();
    expect(pickVerifiedEmail([])).toBeNull();
  });
});
