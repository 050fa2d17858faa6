import { describe, expect, it } from "vitest";
import { describeType, fieldRows } from "./describe-schema";

describe("JSON Schema in words for the API page", () => {
  it("names types with their bounds, enums, unions, arrays and references", () => {
    expect(describeType({ type: "integer", minimum: 10, maximum: 500, default: 100 })).toBe("integer 10–500, default 100");
    expect(describeType({ type: "integer", minimum: 0, maximum: 9007199254740991 })).toBe("integer ≥ 0");
    expect(describeType({ type: "string", enum: ["all", "right"] })).toBe('one of "all", "right"');
    expect(describeType({ anyOf: [{ $ref: "#/components/schemas/Score" }, { type: "null" }] })).toBe("Score or null");
    expect(describeType({ type: "array", items: { $ref: "#/components/schemas/Problem" } })).toBe("array of Problem");
    expect(describeType({ type: "array", prefixItems: [{ type: "number" }, { type: "number" }] })).toBe("[number, number]");
    expect(describeType({ type: "object", additionalProperties: { type: "number" } })).toBe("map of number");
    expect(describeType({ type: ["string", "null"] })).toBe("string or null");
    expect(describeType({ type: "string", format: "binary" })).toBe("string (file)");
    expect(describeType({ type: "string", const: "PENDING" })).toBe('"PENDING"');
  });

  it("lists an object's fields, nested objects as parent.child", () => {
    const rows = fieldRows({
      type: "object",
      required: ["id", "score"],
      properties: {
        id: { type: "string", description: "the id" },
        score: { anyOf: [{ type: "object", required: ["n"], properties: { n: { type: "integer", minimum: 0 } } }, { type: "null" }] },
      },
    });
    expect(rows).toEqual([
      { name: "id", type: "string", isRequired: true, description: "the id" },
      { name: "score", type: "object or null", isRequired: true, description: "" },
      { name: "score.n", type: "integer ≥ 0", isRequired: true, description: "" },
    ]);
  });
});
