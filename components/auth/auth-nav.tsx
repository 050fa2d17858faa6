import { unstable_rethrow } from "next/navigation";
import { isMaintainer, type Actor } from "@/lib/domain/accounts/actor";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { SignedInLinks } from "@/components/auth/account-links";
import { AccountMenu } from "@/components/auth/account-menu";
import { logger } from "@/lib/platform/logger";

async function currentActor(): Promise<Actor> {
  try {
    return await getActor();
  } catch (error) {
    // Next.js signals "this page is dynamic" by throwing: let that through.
    unstable_rethrow(error);
    // The header must not take every page down with it; the account pages report the fault.
    logger.error({ err: error }, "auth: could not read the session for the header");
    return { kind: "anonymous" };
  }
}

/**
 * The signed-in state in the site header. A page rendered without a session
 * (every shared public page is: lib/web/public-cache/public-page-cache.ts) gets
 * the client-side menu, which shows "Sign in" and asks the server who is
 * signed in; a page rendered for a signed-in reader names them at once.
 */
export async function AuthNav() {
  const actor = await currentActor();
  if (actor.kind === "anonymous") return <AccountMenu />;
  return <SignedInLinks displayName={actor.displayName} isMaintainer={isMaintainer(actor)} />;
}
