import { describe, expect, it } from "vitest";
import { addressBucket, clientIpFrom } from "@/lib/platform/rate-limit/client-ip";
import { formatTooManyAttempts } from "@/lib/core/format/format-retry";

describe("clientIpFrom", () => {
  const socketAddress = "198.51.100.7";

  it("with no trusted proxy takes the socket address and ignores X-Forwarded-For", () => {
    expect(clientIpFrom({ forwardedFor: null, socketAddress }, 0)).toBe("198.51.100.7");
    expect(clientIpFrom({ forwardedFor: "9.9.9.9", socketAddress }, 0)).toBe("198.51.100.7");
    expect(clientIpFrom({ forwardedFor: "9.9.9.9, 8.8.8.8", socketAddress }, 0)).toBe("198.51.100.7");
  });

  it("takes the entry the nearest trusted proxy appended", () => {
    expect(clientIpFrom({ forwardedFor: "203.0.113.9", socketAddress: "10.0.0.1" }, 1)).toBe("203.0.113.9");
    expect(clientIpFrom({ forwardedFor: "1.1.1.1, 203.0.113.9", socketAddress: "10.0.0.1" }, 1)).toBe("203.0.113.9");
    expect(clientIpFrom({ forwardedFor: "1.1.1.1, 203.0.113.9, 10.0.0.2", socketAddress: "10.0.0.1" }, 2)).toBe("203.0.113.9");
  });

  it("ignores spoofed entries left of the trusted ones and never indexes before the start", () => {
    expect(clientIpFrom({ forwardedFor: "9.9.9.9, 8.8.8.8, 203.0.113.9", socketAddress }, 1)).toBe("203.0.113.9");
    expect(clientIpFrom({ forwardedFor: "203.0.113.9", socketAddress }, 3)).toBe("203.0.113.9");
  });

  it("behind a proxy that sent no header falls back to the socket address", () => {
    expect(clientIpFrom({ forwardedFor: " , ", socketAddress }, 1)).toBe("198.51.100.7");
  });

  it("folds IPv4-mapped IPv6 into IPv4 and lower-cases IPv6", () => {
    expect(clientIpFrom({ forwardedFor: null, socketAddress: "::ffff:127.0.0.1" }, 0)).toBe("127.0.0.1");
    expect(clientIpFrom({ forwardedFor: "::ffff:127.0.0.1", socketAddress }, 1)).toBe("127.0.0.1");
    expect(clientIpFrom({ forwardedFor: "2001:DB8::1", socketAddress }, 1)).toBe("2001:db8::1");
  });

  it("says unknown without any address (one shared bucket, never a free pass)", () => {
    expect(clientIpFrom({ forwardedFor: "9.9.9.9", socketAddress: null }, 0)).toBe("unknown");
    expect(clientIpFrom({ forwardedFor: null, socketAddress: undefined }, 1)).toBe("unknown");
    expect(clientIpFrom({ forwardedFor: " , ", socketAddress: " " }, 1)).toBe("unknown");
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

describe("addressBucket", () => {
  it("keeps an IPv4 address and the unknown bucket as they are", () => {
    expect(addressBucket("198.51.100.7")).toBe("198.51.100.7");
    expect(addressBucket("unknown")).toBe("unknown");
  });

  it("keys IPv6 by its /64, however the address is written", () => {
    expect(addressBucket("2001:db8:1:2::1")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:0DB8:0001:0002:ffff:ffff:ffff:ffff")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8:1:2:0:0:0:9")).toBe("2001:db8:1:2::/64");
    expect(addressBucket("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressBucket("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressBucket("::1")).toBe("0:0:0:0::/64");
    expect(addressBucket("64:ff9b::192.0.2.33")).toBe("64:ff9b:0:0::/64");
  });

  it("tells neighbouring /64s apart", () => {
    expect(addressBucket("2001:db8:1:3::1")).not.toBe(addressBucket("2001:db8:1:2::1"));
  });

  it("leaves a string that is no IPv6 address as it is", () => {
    expect(addressBucket("2001:db8:::1")).toBe("2001:db8:::1");
    expect(addressBucket("1:2:3:4:5:6:7:8:9")).toBe("1:2:3:4:5:6:7:8:9");
  });
});
