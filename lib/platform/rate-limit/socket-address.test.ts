import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { installSocketAddressStamp, SOCKET_ADDRESS_HEADER } from "@/lib/platform/rate-limit/socket-address";

/**
 * A real HTTP server on 127.0.0.1, created before the stamp is installed (as
 * `next start` creates its server before instrumentation.ts runs).
 */
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((request, response) => {
    response.setHeader("content-type", "application/json");
    response.end(JSON.stringify({ stamped: request.headers[SOCKET_ADDRESS_HEADER] ?? null, forwarded: request.headers["x-forwarded-for"] ?? null }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
  installSocketAddressStamp();
  installSocketAddressStamp(); // idempotent: a second call does not wrap twice
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

async function fetchSeen(headers: Record<string, string>): Promise<{ stamped: string | null; forwarded: string | null }> {
  const response = await fetch(`http://127.0.0.1:${port}/`, { headers });
  return (await response.json()) as { stamped: string | null; forwarded: string | null };
}

describe("installSocketAddressStamp", () => {
  it("stamps the socket address on every request of an existing server", async () => {
    expect((await fetchSeen({})).stamped).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
  });

  it("replaces a client's own value of the header and leaves X-Forwarded-For as sent", async () => {
    const seen = await fetchSeen({ [SOCKET_ADDRESS_HEADER]: "203.0.113.5", "x-forwarded-for": "198.51.100.1" });
    expect(seen.stamped).toMatch(/^(::ffff:)?127\.0\.0\.1$/);
    expect(seen.forwarded).toBe("198.51.100.1");
  });
});
