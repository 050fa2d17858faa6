"use client";

import { useEffect, useRef } from "react";

/**
 * An error summary that takes focus when it appears or its text changes, so a
 * keyboard or screen-reader user lands on what went wrong instead of on <body>.
 */
export function FocusedAlert({ message, id, className }: { message: string; id?: string; className: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, [message]);
  return (
    <p ref={ref} id={id} role="alert" tabIndex={-1} className={className} data-testid="form-error">
      {message}
    </p>
  );
}
