import Link from "next/link";
import { SignOutButton } from "@/components/auth/sign-out-button";

/**
 * The header's account links, the same markup whether the server renders
 * them (auth-nav.tsx, pages rendered per reader) or the browser does
 * (account-menu.tsx, on the shared public pages).
 */

export function SignedOutLinks() {
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

export function SignedInLinks({ displayName, isMaintainer }: { displayName: string; isMaintainer: boolean }) {
  return (
    <ul aria-label="Account" className="ml-auto flex min-w-0 flex-wrap items-center gap-x-4 gap-y-1 text-sm">
      <li>
        <Link href="/submissions">My submissions</Link>
      </li>
      <li>
        <Link href="/runs">My runs</Link>
      </li>
      {isMaintainer && (
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
        <Link href="/account" className="break-all">
          <span className="sr-only">Account of </span>
          {displayName}
        </Link>
      </li>
      <li>
        <SignOutButton />
      </li>
    </ul>
  );
}
