import { AppError } from "@/lib/core/errors";
import type { Role } from "@/lib/platform/generated/prisma";

/**
 * Who is asking. `getActor` (lib/domain/accounts/get-actor.ts) builds one per request;
 * the guards below turn it into a signed-in user or throw an AppError that
 * `errorResponse` maps to 401, 403 or 404.
 */
type AnonymousActor = { kind: "anonymous" };

export type UserActor = {
  kind: "user";
  userId: string;
  /** Read from the database on every request, so a demotion takes effect at once. */
  role: Role;
  displayName: string;
  /** "token": an API token in `Authorization: Bearer`; carries participant rights only. */
  via: "session" | "token";
  /** The ApiToken row, when via === "token". */
  tokenId?: string;
};

export type Actor = AnonymousActor | UserActor;

export const ANONYMOUS: AnonymousActor = { kind: "anonymous" };

/** Maintainer rights need the role and a browser session: API tokens never carry them. */
export function isMaintainer(actor: Actor): boolean {
  return actor.kind === "user" && actor.role === "MAINTAINER" && actor.via === "session";
}

/** Any signed-in user (session or API token); 401 otherwise. */
export function requireUser(actor: Actor): UserActor {
  if (actor.kind !== "user") {
    throw new AppError("unauthenticated", "Sign in, or send an API token as 'Authorization: Bearer <token>'.");
  }
  return actor;
}

/** A signed-in browser session; 401 when anonymous, 403 for an API token. */
export function requireSession(actor: Actor): UserActor {
  const user = requireUser(actor);
  if (user.via !== "session") {
    throw new AppError("forbidden", "This action needs a signed-in browser session; API tokens cannot do it.");
  }
  return user;
}

/** A maintainer with a browser session; 401 when anonymous, 403 otherwise. */
export function requireMaintainer(actor: Actor): UserActor {
  const user = requireUser(actor);
  if (isMaintainer(user)) return user;
  if (user.role === "MAINTAINER") {
    throw new AppError("forbidden", "Maintainer actions need a signed-in browser session; API tokens carry participant rights only.");
  }
  throw new AppError("forbidden", "Only maintainers can do this.");
}

/**
 * The owner of an object, or a maintainer. Anyone else gets 404, not 403, so
 * the answer does not reveal that someone else's object exists.
 */
export function requireOwnerOrMaintainer(actor: Actor, ownerId: string): UserActor {
  const user = requireUser(actor);
  if (user.userId === ownerId || isMaintainer(user)) return user;
  throw new AppError("not_found", "Not found.");
}
