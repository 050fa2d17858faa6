import "server-only";
import { notFound, redirect } from "next/navigation";
import { isMaintainer, type UserActor } from "@/lib/domain/accounts/actor";
import { getActor } from "@/lib/domain/accounts/get-actor";

/** For pages: the signed-in user, or a redirect to /sign-in that comes back to `path`. */
export async function requirePageUser(path: string): Promise<UserActor> {
  const actor = await getActor();
  if (actor.kind !== "user") redirect(`/sign-in?callbackUrl=${encodeURIComponent(path)}`);
  return actor;
}

/** For maintainer pages: signed-in maintainers only; everyone else signed in gets a 404. */
export async function requirePageMaintainer(path: string): Promise<UserActor> {
  const user = await requirePageUser(path);
  if (!isMaintainer(user)) notFound();
  return user;
}
