import { z } from "zod";
import { isMaintainer, type Actor } from "./actor";

/**
 * The signed-in part of the site header, as GET /api/account-menu sends it
 * to the browser. The public pages are one shared body for every reader
 * (lib/web/public-cache/public-page-cache.ts), rendered as an anonymous reader
 * sees them, so nothing personal is in them: the header's account menu
 * (components/auth/account-menu.tsx) asks for this after the page loads.
 */
export const accountMenuSchema = z.discriminatedUnion("signedIn", [
  z.object({ signedIn: z.literal(false) }),
  z.object({ signedIn: z.literal(true), displayName: z.string(), isMaintainer: z.boolean() }),
]);

export type AccountMenu = z.infer<typeof accountMenuSchema>;

/** Where the header's account menu is read. */
export const ACCOUNT_MENU_PATH = "/api/account-menu";

/** Never kept by a browser or a shared cache: it names who is signed in. */
export const ACCOUNT_MENU_CACHE_CONTROL = "private, no-store";

export const SIGNED_OUT_MENU: AccountMenu = { signedIn: false };

/** What the header shows `actor`. An API token never signs a browser in, so only a session counts. */
export function accountMenuOf(actor: Actor): AccountMenu {
  if (actor.kind === "anonymous" || actor.via !== "session") return SIGNED_OUT_MENU;
  return { signedIn: true, displayName: actor.displayName, isMaintainer: isMaintainer(actor) };
}
