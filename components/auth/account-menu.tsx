"use client";

import { useEffect, useState } from "react";
import { SignedInLinks, SignedOutLinks } from "@/components/auth/account-links";
import { ACCOUNT_MENU_PATH, accountMenuSchema, SIGNED_OUT_MENU, type AccountMenu as Menu } from "@/lib/domain/accounts/account-menu";

/**
 * The header's account links on a page rendered for nobody in particular:
 * the shared public pages are the anonymous reader's body, served to
 * everyone, so the server renders "Sign in" and the browser asks who is
 * signed in (GET /api/account-menu, never cached) once the page has loaded.
 * Without JavaScript a signed-in reader sees the public page as it is.
 */
export function AccountMenu() {
  const [menu, setMenu] = useState<Menu>(SIGNED_OUT_MENU);
  useEffect(() => {
    const controller = new AbortController();
    fetch(ACCOUNT_MENU_PATH, { cache: "no-store", credentials: "same-origin", signal: controller.signal })
      .then(async (response) => (response.ok ? accountMenuSchema.parse(await response.json()) : SIGNED_OUT_MENU))
      .then(setMenu)
      // Offline, or the session could not be read: the header stays signed out, as the server rendered it.
      .catch(() => undefined);
    return () => controller.abort();
  }, []);
  if (!menu.signedIn) return <SignedOutLinks />;
  return <SignedInLinks displayName={menu.displayName} isMaintainer={menu.isMaintainer} />;
}
