import { describe, expect, it } from "vitest";
import { z } from "zod";
import { describeIssue, fieldName } from "./describe-issue";

function sentences(schema: z.ZodType, input: unknown, subject?: "field" | "query parameter"): string[] {
  const parsed = schema.safeParse(input);
  if (parsed.success) throw new Error("expected a failure");
  return parsed.error.issues.map((issue) => describeIssue(issue, subject));
}

describe("describeIssue", () => {
  it("names the field and says what is wrong, not zod's own wording", () => {
    const schema = z.object({ name: z.string(), count: z.number().int().min(1), tags: z.array(z.string()).max(2), kind: z.enum(["a", "b"]) }).strict();
    expect(sentences(schema, { count: "x", tags: ["1", "2", "3"], kind: "c", extra: 1 })).toEqual([
      'field "name" is required',
      'field "count" must be a number',
      'field "tags" must be at most 2 items',
      'field "kind" must be one of "a", "b"',
      'unknown field "extra"',
    ]);
  });

  it("keeps a message written in the schema after the field's name", () => {
    expect(sentences(z.object({ systemName: z.string().min(2, "at least 2 characters") }), { systemName: "x" })).toEqual(['field "systemName" at least 2 characters']);
    expect(sentences(z.object({ q: z.string() }), {}, "query parameter")).toEqual(['query parameter "q" is required']);
  });

  it("describes a body that is not an object, and nested paths", () => {
    expect(sentences(z.object({ a: z.string() }), "text")).toEqual(["the request body must be a JSON object"]);
    expect(sentences(z.object({ list: z.array(z.string().min(1)) }), { list: ["ok", ""] })).toEqual(['field "list[1]" must not be empty']);
    expect(fieldName(["byType", "Place", 0])).toBe("byType.Place[0]");
  });
});
