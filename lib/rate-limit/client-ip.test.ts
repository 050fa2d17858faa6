import { describe, expect, it } from "vitest";
import { clientIpFrom } from "@/lib/rate-limit/client-ip";
import { formatTooManyAttempts } from "@/lib/rate-limit/format-retry";

describe("clientIpFrom", () => {
  it("takes the entry the nearest trusted proxy appended", () => {
    expect(clientIpFrom("203.0.113.9", 1)).toBe("203.0.113.9");
    expect(clientIpFrom("1.1.1.1, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(clientIpFrom("1.1.1.1, 203.0.113.9, 10.0.0.2", 2)).toBe("203.0.113.9");
  });

  it("ignores spoofed entries left of the trusted ones and never indexes before the start", () => {
    expect(clientIpFrom("9.9.9.9, 8.8.8.8, 203.0.113.9", 1)).toBe("203.0.113.9");
    expect(clientIpFrom("203.0.113.9", 3)).toBe("203.0.113.9");
  });

  it("folds IPv4-mapped IPv6 into IPv4 and lower-cases IPv6", () => {
    expect(clientIpFrom("::ffff:127.0.0.1", 1)).toBe("127.0.0.1");
    expect(clientIpFrom("2001:DB8::1", 1)).toBe("2001:db8::1");
  });

  it("says unknown without a header", () => {
    expect(clientIpFrom(null, 1)).toBe("unknown");
    expect(clientIpFrom(" , ", 1)).toBe("unknown");
  });
});

describe("formatTooManyAttempts", () => {
  it("rounds up to whole minutes", () => {
    expect(formatTooManyAttempts(1)).toBe("Too many attempts, try again in 1 minute.");
    expect(formatTooManyAttempts(60)).toBe("Too many attempts, try again in 1 minute.");
    expect(formatTooManyAttempts(61)).toBe("Too many attempts, try again in 2 minutes.");
    expect(formatTooManyAttempts(900)).toBe("Too many attempts, try again in 15 minutes.");
  });
});
