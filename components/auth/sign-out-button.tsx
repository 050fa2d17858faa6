"use client";

import { signOut } from "next-auth/react";
import { useState } from "react";
import { useIsHydrated } from "@/components/auth/use-is-hydrated";

export function SignOutButton() {
  const [isPending, setIsPending] = useState(false);
  const isHydrated = useIsHydrated();
  async function handleClick() {
    setIsPending(true);
    await signOut({ redirect: false });
    window.location.assign("/");
  }
  return (
    <button type="button" onClick={() => void handleClick()} disabled={isPending || !isHydrated} className="text-accent hover:underline disabled:opacity-60">
      {isPending ? "Signing out…" : "Sign out"}
    </button>
  );
}
