import { describe, expect, it } from "vitest";
import { checkMetricsAccess } from "./metrics-access";

const TOKEN = "metrics-token-0123456789";

describe("metrics access", () => {
  it("is disabled when no token is configured, whatever the caller sends", () => {
    expect(checkMetricsAccess(null, undefined)).toBe("disabled");
    expect(checkMetricsAccess(`Bearer ${TOKEN}`, undefined)).toBe("disabled");
  });

  it("allows the configured token as a Bearer token (scheme in any case)", () => {
    expect(checkMetricsAccess(`Bearer ${TOKEN}`, TOKEN)).toBe("allowed");
    expect(checkMetricsAccess(`bearer ${TOKEN}`, TOKEN)).toBe("allowed");
  });

  it("refuses a missing, wrong, truncated or differently sent token", () => {
    expect(checkMetricsAccess(null, TOKEN)).toBe("unauthorized");
    expect(checkMetricsAccess("Bearer", TOKEN)).toBe("unauthorized");
    expect(checkMetricsAccess("Bearer wrong-token-0123456789", TOKEN)).toBe("unauthorized");
    expect(checkMetricsAccess(`Bearer ${TOKEN.slice(0, -1)}`, TOKEN)).toBe("unauthorized");
    expect(checkMetricsAccess(`Basic ${TOKEN}`, TOKEN)).toBe("unauthorized");
    expect(checkMetricsAccess(`Bearer ${TOKEN} extra`, TOKEN)).toBe("unauthorized");
  });
});
