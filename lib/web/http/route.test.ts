import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AppError } from "@/lib/core/errors";
import { route } from "./route";

/** Public routes only: the auth levels need the database and are covered by e2e/authz-matrix.spec.ts. */

const echo = route(
  { auth: "public", params: ["id"], query: z.object({ limit: z.coerce.number().int().min(1).default(10) }).strict(), body: z.object({ name: z.string().min(2, "at least 2 characters"), tags: z.array(z.string()).optional() }) },
  async ({ params, query, body }) => ({ id: params.id, limit: query.limit, name: body.name }),
);

function post(url: string, body: string, id = "abc"): Promise<Response> {
  return echo(new Request(`http://localhost${url}`, { method: "POST", body, headers: { "content-type": "application/json" } }), { params: Promise.resolve({ id }) });
}

async function problemsOf(response: Response): Promise<{ status: number; message: string; problems: string[] }> {
  const body = (await response.json()) as { error: { message: string; problems?: { message: string }[] } };
  return { status: response.status, message: body.error.message, problems: (body.error.problems ?? []).map((problem) => problem.message) };
}

describe("route()", () => {
  it("hands the handler parsed params, query and body, and sends its value as JSON that is not cached", async () => {
    const response = await post("/x?limit=3", JSON.stringify({ name: "Ada" }));
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ id: "abc", limit: 3, name: "Ada" });
  });

  it("answers 422 with sentences that name each field, not zod's wording", async () => {
    expect(await problemsOf(await post("/x", JSON.stringify({})))).toEqual({ status: 422, message: 'field "name" is required', problems: ['field "name" is required'] });
    expect((await problemsOf(await post("/x", JSON.stringify({ name: "A", tags: [1] })))).problems).toEqual(['field "name" at least 2 characters', 'field "tags[0]" must be a string']);
    const query = await problemsOf(await post("/x?limit=0&page=2", JSON.stringify({ name: "Ada" })));
    expect(query.status).toBe(422);
    expect(query.problems).toEqual(['query parameter "limit" must be at least 1', 'unknown query parameter "page"']);
  });

  it("refuses a NUL character in the body, the query or a route param with 422, before anything reaches the database", async () => {
    expect(await problemsOf(await post("/x", JSON.stringify({ name: "Ad\u0000a" })))).toMatchObject({ status: 422, problems: ['field "name" contains a NUL character (\\u0000), which cannot be stored; remove it'] });
    expect((await problemsOf(await post("/x?limit=%00", JSON.stringify({ name: "Ada" })))).problems[0]).toBe('query parameter "limit" contains a NUL character (\\u0000), which cannot be stored; remove it');
    expect((await problemsOf(await post("/x", JSON.stringify({ name: "Ada" }), "a\u0000b"))).problems[0]).toBe('field "id" contains a NUL character (\\u0000), which cannot be stored; remove it');
  });

  it("answers 400 for a body that is not JSON", async () => {
    expect((await problemsOf(await post("/x", "{not json"))).status).toBe(400);
  });

  it("maps an AppError to its status and anything else to a 500 that says nothing of the cause", async () => {
    const failing = (error: unknown) => route({ auth: "public" }, async () => Promise.reject(error))(new Request("http://localhost/x"));
    const quota = await failing(new AppError("quota", "No test submissions left today.", { retryAfterSeconds: 60 }));
    expect(quota.status).toBe(429);
    expect(quota.headers.get("retry-after")).toBe("60");
    const original = console.error;
    console.error = () => undefined;
    try {
      const unknown = await failing(new Error("password=hunter2 in a query"));
      expect(unknown.status).toBe(500);
      expect(await unknown.text()).not.toContain("hunter2");
    } finally {
      console.error = original;
    }
  });
});
