import { describe, expect, it } from "vitest";
import { describePublicationIssue, publicationRequestSchema } from "./schemas";

function messagesFor(input: unknown): string[] {
  const parsed = publicationRequestSchema.safeParse(input);
  if (parsed.success) return [];
  return parsed.error.issues.map((issue) => describePublicationIssue(issue, input).message);
}

describe("publication request errors", () => {
  it("name the missing field in a sentence, not zod's type words", () => {
    expect(messagesFor({ methodDescription: "A retrieval model over the knowledge base." })).toEqual(["System name is required."]);
    expect(messagesFor({})).toEqual(["System name is required.", "Method description is required."]);
  });

  it("say what is wrong with a field that is there", () => {
    expect(messagesFor({ systemName: 7, methodDescription: "A retrieval model over the knowledge base." })).toEqual(["System name must be text."]);
    expect(messagesFor({ systemName: "X", methodDescription: "short" })).toEqual([
      "System name: at least 2 characters.",
      "Method description: describe the method in at least 20 characters.",
    ]);
    expect(messagesFor({ systemName: "Kestrel", methodDescription: "A retrieval model over the knowledge base.", paperUrl: "ftp://x.org" })).toEqual([
      "Paper URL: must be an http(s) URL.",
    ]);
  });

  it("give the field key for the form to place the message", () => {
    const input = { systemName: "Kestrel" };
    const parsed = publicationRequestSchema.safeParse(input);
    expect(parsed.success).toBe(false);
    if (parsed.success) return;
    expect(parsed.error.issues.map((issue) => describePublicationIssue(issue, input).field)).toEqual(["methodDescription"]);
  });
});
