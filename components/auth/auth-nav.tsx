import Link from "next/link";
import { unstable_rethrow } from "next/navigation";
import { isMaintainer, type Actor } from "@/lib/auth/actor";
import { getActor } from "@/lib/auth/get-actor";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { logger } from "@/lib/logger";

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

/** The signed-in state in the site header. */
export async function AuthNav() {
  const actor = await currentActor();
  if (actor.kind === "anonymous") {
    return (
      <ul aria-label="Account" className="ml-auto flex gap-x-4 text-sm">
        <li>
          <Link href="/sign-in">Sign in</Link>
        </li>
        <li>
          <Link href="/sign-up">Sign up</Link>
        </li>
      </ul>
    );
  }
  return (
    <ul aria-label="Account" className="ml-auto flex items-center gap-x-4 text-sm">
      <li>
        <Link href="/submissions">My submissions</Link>
      </li>
      <li>
        <Link href="/runs">My runs</Link>
      </li>
      {isMaintainer(actor) && (
        <>
          <li>
            <Link href="/admin/review">Review</Link>
          </li>
          <li>
            <Link href="/admin/queue">Queue</Link>
          </li>
          <li>
            <Link href="/admin/audit">Audit log</Link>
          </li>
          <li>
            <Link href="/admin/users">Users</Link>
          </li>
        </>
      )}
      <li>
        <Link href="/account">
          <span className="sr-only">Account of </span>
          {actor.displayName}
        </Link>
      </li>
      <li>
        <SignOutButton />
      </li>
    </ul>
  );
}
