"use client";

import { useSyncExternalStore } from "react";

function subscribe(): () => void {
  return () => {};
}

/**
 * False in the server HTML, true once React has hydrated. Buttons whose only
 * behaviour is JavaScript stay disabled until then, so an early click is not
 * lost (or, for the sign-in form, sent as a plain form post).
 */
export function useIsHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
