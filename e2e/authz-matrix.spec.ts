import { readFileSync } from "node:fs";
import path from "node:path";
import type { APIRequestContext } from "@playwright/test";
import {
  apiContextFor,
  createTestApiToken,
  createTestUser,
  deleteTestUsers,
  expect,
  test,
  type TestUser,
} from "./fixtures";

/**
 * Authorization matrix: every protected route, every kind of caller, the exact
 * status. To cover a new route, add a row to ROUTES: the method, the path (a
 * function of the seeded world, so rows can point at someone's object), an
 * optional body, and the status for each caller. Each cell becomes its own
 * test, named "<METHOD> <path> as <caller> -> <status>".
 *
 * Callers:
 *   anonymous         no cookie, no token
 *   participant       signed-in participant (session cookie, same-site Origin)
 *   otherParticipant  a second participant; for "someone else's object" checks
 *   maintainer        signed-in maintainer
 *   participantToken  participant's API token (Authorization: Bearer, no cookie, no Origin)
 *   maintainerToken   maintainer's API token: tokens carry participant rights only
 *
 * Pages answer 307 (to /sign-in) for callers without a session and 404 for a
 * signed-in non-maintainer on maintainer pages.
 */
const CALLERS = ["anonymous", "participant", "otherParticipant", "maintainer", "participantToken", "maintainerToken"] as const;
type Caller = (typeof CALLERS)[number];

type World = {
  participant: TestUser;
  otherParticipant: TestUser;
  maintainer: TestUser;
  /** The participant's scored submissions (uploaded with their API token in beforeAll). */
  devSubmissionId: string;
  testSubmissionId: string;
};

const PREDICTIONS = path.join(__dirname, "..", "data", "demo-predictions");
const devFile = () => ({ file: { name: "dev-open.jsonl", mimeType: "application/jsonl", buffer: readFileSync(path.join(PREDICTIONS, "dev-open.jsonl")) } });

type Route = {
  method: "GET" | "POST" | "PATCH" | "PUT" | "DELETE";
  /** Shown in test titles. */
  label: string;
  /** Runs before each cell: may create the object the request acts on. */
  path: (world: World) => Promise<string> | string;
  body?: unknown;
  multipart?: () => Record<string, { name: string; mimeType: string; buffer: Buffer }>;
  headers?: Record<string, string>;
  expected: Record<Caller, number>;
};

const ROUTES: Route[] = [
  {
    method: "GET",
    label: "/api/me",
    path: () => "/api/me",
    expected: { anonymous: 401, participant: 200, otherParticipant: 200, maintainer: 200, participantToken: 200, maintainerToken: 200 },
  },
  {
    method: "PATCH",
    label: "/api/me",
    path: () => "/api/me",
    body: { affiliation: "Matrix University" },
    expected: { anonymous: 401, participant: 200, otherParticipant: 200, maintainer: 200, participantToken: 200, maintainerToken: 200 },
  },
  {
    method: "PATCH",
    label: "/api/me (cross-site Origin)",
    path: () => "/api/me",
    body: { affiliation: "Forged" },
    headers: { origin: "https://evil.example" },
    // cookie sessions are refused (CSRF); bearer tokens carry no ambient credentials and are exempt
    expected: { anonymous: 401, participant: 403, otherParticipant: 403, maintainer: 403, participantToken: 200, maintainerToken: 200 },
  },
  {
    method: "GET",
    label: "/api/tokens",
    path: () => "/api/tokens",
    expected: { anonymous: 401, participant: 200, otherParticipant: 200, maintainer: 200, participantToken: 200, maintainerToken: 200 },
  },
  {
    method: "POST",
    label: "/api/tokens",
    path: () => "/api/tokens",
    body: { name: "matrix", expiresInDays: 1 },
    expected: { anonymous: 401, participant: 201, otherParticipant: 201, maintainer: 201, participantToken: 403, maintainerToken: 403 },
  },
  {
    method: "DELETE",
    label: "/api/tokens/:participant's token",
    path: async (world) => `/api/tokens/${(await createTestApiToken(world.participant.id, { name: "to revoke" })).id}`,
    expected: { anonymous: 401, participant: 200, otherParticipant: 404, maintainer: 200, participantToken: 200, maintainerToken: 404 },
  },
  {
    method: "DELETE",
    label: "/api/tokens/:unknown",
    path: () => "/api/tokens/no-such-token",
    expected: { anonymous: 401, participant: 404, otherParticipant: 404, maintainer: 404, participantToken: 404, maintainerToken: 404 },
  },
  {
    method: "PATCH",
    label: "/api/admin/users/:participant",
    path: (world) => `/api/admin/users/${world.participant.id}`,
    // already a participant: the maintainer's call succeeds without changing anything
    body: { role: "PARTICIPANT", reason: "authorization matrix" },
    expected: { anonymous: 401, participant: 403, otherParticipant: 403, maintainer: 200, participantToken: 403, maintainerToken: 403 },
  },
  {
    method: "GET",
    label: "/api/submissions",
    path: () => "/api/submissions",
    expected: { anonymous: 401, participant: 200, otherParticipant: 200, maintainer: 200, participantToken: 200, maintainerToken: 200 },
  },
  {
    method: "POST",
    label: "/api/submissions (dev file upload)",
    path: () => "/api/submissions",
    multipart: devFile,
    expected: { anonymous: 401, participant: 201, otherParticipant: 201, maintainer: 201, participantToken: 201, maintainerToken: 201 },
  },
  {
    method: "GET",
    label: "/api/quota",
    path: () => "/api/quota",
    expected: { anonymous: 401, participant: 200, otherParticipant: 200, maintainer: 200, participantToken: 200, maintainerToken: 200 },
  },
  {
    method: "GET",
    label: "/api/submissions/:participant's dev submission",
    path: (world) => `/api/submissions/${world.devSubmissionId}`,
    expected: { anonymous: 401, participant: 200, otherParticipant: 404, maintainer: 200, participantToken: 200, maintainerToken: 404 },
  },
  {
    method: "GET",
    label: "/api/submissions/:participant's dev submission/samples",
    path: (world) => `/api/submissions/${world.devSubmissionId}/samples`,
    expected: { anonymous: 401, participant: 200, otherParticipant: 404, maintainer: 200, participantToken: 200, maintainerToken: 404 },
  },
  {
    method: "GET",
    label: "/api/submissions/:participant's test submission/samples (hidden gold: nobody)",
    path: (world) => `/api/submissions/${world.testSubmissionId}/samples`,
    expected: { anonymous: 401, participant: 404, otherParticipant: 404, maintainer: 404, participantToken: 404, maintainerToken: 404 },
  },
  {
    method: "GET",
    label: "/api/submissions/:participant's dev submission/analysis",
    path: (world) => `/api/submissions/${world.devSubmissionId}/analysis`,
    expected: { anonymous: 401, participant: 200, otherParticipant: 404, maintainer: 200, participantToken: 200, maintainerToken: 404 },
  },
  {
    method: "GET",
    label: "/api/submissions/:participant's test submission/analysis (unpublished: maintainers only, protocol section 12)",
    path: (world) => `/api/submissions/${world.testSubmissionId}/analysis`,
    expected: { anonymous: 401, participant: 404, otherParticipant: 404, maintainer: 200, participantToken: 404, maintainerToken: 404 },
  },
  {
    method: "PATCH",
    label: "/api/submissions/:participant's dev submission/note (owner only)",
    path: (world) => `/api/submissions/${world.devSubmissionId}/note`,
    body: { note: "authorization matrix" },
    expected: { anonymous: 401, participant: 200, otherParticipant: 404, maintainer: 403, participantToken: 200, maintainerToken: 404 },
  },
  {
    method: "POST",
    label: "/api/submissions/:participant's test submission/publication (invalid details)",
    path: (world) => `/api/submissions/${world.testSubmissionId}/publication`,
    // Only the owner gets as far as validating the details; nobody else learns the submission exists.
    body: { systemName: "" },
    expected: { anonymous: 401, participant: 422, otherParticipant: 404, maintainer: 404, participantToken: 422, maintainerToken: 404 },
  },
  {
    method: "POST",
    label: "/api/admin/submissions/:participant's dev submission/review",
    path: (world) => `/api/admin/submissions/${world.devSubmissionId}/review`,
    // Unmarking a submission that is not a baseline changes nothing.
    body: { action: "unmark-baseline", reason: "authorization matrix" },
    expected: { anonymous: 401, participant: 403, otherParticipant: 403, maintainer: 200, participantToken: 403, maintainerToken: 403 },
  },
  {
    method: "GET",
    label: "/api/admin/submissions (review queue with probe flags)",
    path: () => "/api/admin/submissions",
    expected: { anonymous: 401, participant: 403, otherParticipant: 403, maintainer: 200, participantToken: 403, maintainerToken: 403 },
  },
  {
    method: "GET",
    label: "/submit (page)",
    path: () => "/submit",
    expected: { anonymous: 307, participant: 200, otherParticipant: 200, maintainer: 200, participantToken: 307, maintainerToken: 307 },
  },
  {
    method: "GET",
    label: "/submissions/:participant's dev submission (page)",
    path: (world) => `/submissions/${world.devSubmissionId}`,
    expected: { anonymous: 307, participant: 200, otherParticipant: 404, maintainer: 200, participantToken: 307, maintainerToken: 307 },
  },
  {
    method: "GET",
    label: "/admin/review (page)",
    path: () => "/admin/review",
    expected: { anonymous: 307, participant: 404, otherParticipant: 404, maintainer: 200, participantToken: 307, maintainerToken: 307 },
  },
  {
    method: "GET",
    label: "/admin/queue (page)",
    path: () => "/admin/queue",
    expected: { anonymous: 307, participant: 404, otherParticipant: 404, maintainer: 200, participantToken: 307, maintainerToken: 307 },
  },
  {
    method: "GET",
    label: "/admin/audit (page)",
    path: () => "/admin/audit",
    expected: { anonymous: 307, participant: 404, otherParticipant: 404, maintainer: 200, participantToken: 307, maintainerToken: 307 },
  },
  {
    method: "GET",
    label: "/account (page)",
    path: () => "/account",
    expected: { anonymous: 307, participant: 200, otherParticipant: 200, maintainer: 200, participantToken: 307, maintainerToken: 307 },
  },
  {
    method: "GET",
    label: "/account/tokens (page)",
    path: () => "/account/tokens",
    expected: { anonymous: 307, participant: 200, otherParticipant: 200, maintainer: 200, participantToken: 307, maintainerToken: 307 },
  },
  {
    method: "GET",
    label: "/admin/users (page)",
    path: () => "/admin/users",
    expected: { anonymous: 307, participant: 404, otherParticipant: 404, maintainer: 200, participantToken: 307, maintainerToken: 307 },
  },
];

let world: World;
const clients = new Map<Caller, APIRequestContext>();

test.beforeAll(async ({ playwright, baseURL }) => {
  test.setTimeout(180_000);
  const base = baseURL ?? "";
  const participant = await createTestUser({ label: "matrix-participant" });
  const participantToken = await createTestApiToken(participant.id, { name: "matrix participant" });
  const uploader = await apiContextFor(playwright, base, { kind: "token", token: participantToken.token });
  world = {
    participant,
    otherParticipant: await createTestUser({ label: "matrix-other" }),
    maintainer: await createTestUser({ label: "matrix-maintainer", role: "MAINTAINER" }),
    devSubmissionId: await uploadScored(uploader, "dev-open.jsonl"),
    testSubmissionId: await uploadScored(uploader, "test-open.jsonl"),
  };
  await uploader.dispose();
  const maintainerToken = await createTestApiToken(world.maintainer.id, { name: "matrix maintainer" });
  clients.set("anonymous", await apiContextFor(playwright, base, { kind: "anonymous" }));
  clients.set("participant", await apiContextFor(playwright, base, { kind: "session", user: world.participant }));
  clients.set("otherParticipant", await apiContextFor(playwright, base, { kind: "session", user: world.otherParticipant }));
  clients.set("maintainer", await apiContextFor(playwright, base, { kind: "session", user: world.maintainer }));
  clients.set("participantToken", await apiContextFor(playwright, base, { kind: "token", token: participantToken.token }));
  clients.set("maintainerToken", await apiContextFor(playwright, base, { kind: "token", token: maintainerToken.token }));
});

/** Uploads a demo prediction file and waits until the worker has scored it. */
async function uploadScored(client: APIRequestContext, file: string): Promise<string> {
  const buffer = readFileSync(path.join(PREDICTIONS, file));
  const created = await client.post("/api/submissions", { multipart: { file: { name: file, mimeType: "application/jsonl", buffer } } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(async () => ((await (await client.get(`/api/submissions/${id}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe("SCORED");
  return id;
}

test.afterAll(async () => {
  for (const client of clients.values()) await client.dispose();
  await deleteTestUsers([world.participant.id, world.otherParticipant.id, world.maintainer.id]);
});

for (const route of ROUTES) {
  test.describe(`[AUTHZ] ${route.method} ${route.label}`, () => {
    for (const caller of CALLERS) {
      const status = route.expected[caller];
      test(`as ${caller} -> ${status}`, async () => {
        const client = clients.get(caller);
        if (!client) throw new Error(`no client for ${caller}`);
        const response = await client.fetch(await route.path(world), {
          method: route.method,
          data: route.body,
          multipart: route.multipart?.(),
          headers: route.headers,
          maxRedirects: 0,
          // Each caller's client keeps its connection between the tests; the server may close it as idle just as a
          // request goes out (ECONNRESET before any answer), which Playwright then sends once more. A status is asserted either way.
          maxRetries: 1,
        });
        expect(response.status(), `${route.method} ${route.label} as ${caller}: ${await response.text()}`).toBe(status);
        if (status === 307) expect(response.headers()["location"]).toContain("/sign-in");
        if (response.headers()["content-type"]?.includes("application/json") && status >= 400) {
          const body: unknown = await response.json();
          expect(body).toMatchObject({ error: { code: expect.any(String), message: expect.any(String) } });
        }
      });
    }
  });
}
