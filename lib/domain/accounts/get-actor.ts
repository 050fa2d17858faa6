import "server-only";
import { headers } from "next/headers";
import { cache } from "react";
import { ANONYMOUS, type Actor } from "@/lib/domain/accounts/actor";
import { assertSameOrigin, isMutatingMethod } from "@/lib/domain/accounts/same-origin";
import { readSessionUserId } from "@/lib/domain/accounts/session-cookie";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { AppError } from "@/lib/core/errors";
import { authenticateApiToken } from "@/lib/domain/accounts/authenticate-api-token";

/**
 * The one place that decides who is asking.
 *
 * - Route handlers: `getActor(request)`. An `Authorization: Bearer <token>`
 *   header wins (an invalid, revoked or expired token is a 401, never a silent
 *   downgrade to anonymous); otherwise the next-auth session cookie. A session
 *   on a POST, PUT, PATCH or DELETE must come with a same-site Origin (CSRF).
 * - Server components and server actions: `getActor()`. Session only; Next.js
 *   checks the Origin of server actions itself.
 *
 * The user row is read on every request, so role changes and deletions apply
 * to existing sessions at once; within one render (a page, its layout and the
 * header) the session is decoded once (React `cache`).
 */
export async function getActor(request?: Request): Promise<Actor> {
  if (!request) return sessionActorOfThisRequest();
  const authorization = request.headers.get("authorization");
  if (authorization !== null) return actorFromAuthorization(authorization);
  const actor = await actorFromSession(request.headers.get("cookie"));
  if (actor.kind === "user" && isMutatingMethod(request.method)) {
    assertSameOrigin(request.headers, getEnv().PUBLIC_URL ?? getEnv().NEXTAUTH_URL);
  }
  return actor;
}

const sessionActorOfThisRequest = cache(async (): Promise<Actor> => {
  const headerList = await headers();
  return actorFromSession(headerList.get("cookie"));
});

async function actorFromAuthorization(authorization: string): Promise<Actor> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization.trim());
  if (!match?.[1]) {
    throw new AppError("unauthenticated", "The Authorization header must be 'Bearer <API token>'.");
  }
  return authenticateApiToken(match[1]);
}

/** The user of a Cookie header's session, read fresh; ANONYMOUS without a valid one (the web server's fast path asks this too). */
export async function actorFromSession(cookieHeader: string | null): Promise<Actor> {
  const userId = await readSessionUserId(cookieHeader);
  if (!userId) return ANONYMOUS;
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, role: true, displayName: true, isSystem: true },
  });
  if (!user || user.isSystem) return ANONYMOUS;
  return { kind: "user", userId: user.id, role: user.role, displayName: user.displayName, via: "session" };
}
