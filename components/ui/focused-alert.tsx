"use client";

import { useEffect, useRef, type ReactNode } from "react";

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

/**
 * The result of an action that took the person to a new page (signed up,
 * approved): a status that takes focus when it appears, so the keyboard and
 * the screen reader start from it.
 */
export function FocusedStatus({ children, className, testId }: { children: ReactNode; className: string; testId: string }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    ref.current?.focus();
  }, []);
  return (
    <p ref={ref} role="status" tabIndex={-1} className={className} data-testid={testId}>
      {children}
    </p>
  );
}
