import { describe, expect, it } from "vitest";
import { chooseBodyEncoding } from "./accept-encoding";

describe("chooseBodyEncoding", () => {
  it("prefers brotli, then gzip, then the plain body", () => {
    expect(chooseBodyEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(chooseBodyEncoding("gzip, deflate")).toBe("gzip");
    expect(chooseBodyEncoding("deflate")).toBe("identity");
    expect(chooseBodyEncoding(null)).toBe("identity");
    expect(chooseBodyEncoding("")).toBe("identity");
  });

  it("honours q-values, q=0 and the wildcard", () => {
    expect(chooseBodyEncoding("br;q=0, gzip")).toBe("gzip");
    expect(chooseBodyEncoding("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(chooseBodyEncoding("*")).toBe("br");
    expect(chooseBodyEncoding("*;q=0")).toBe("identity");
    expect(chooseBodyEncoding("GZIP")).toBe("gzip");
    expect(chooseBodyEncoding("x-gzip")).toBe("gzip");
  });
});
