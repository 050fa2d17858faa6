import type { ReactNode } from "react";

/**
 * The markup every data table on the site shares: a horizontally scrolling
 * container that a keyboard can focus (axe `scrollable-region-focusable`), a
 * caption, one header row and the body. Callers pass the header cells (each a
 * `<th scope="col">`) and the body rows; the class props exist so a table whose
 * look differs (a hidden caption, a bordered table, a plain header) keeps it.
 */
export type TableShellProps = {
  caption: ReactNode;
  /** The header cells of the one header row. */
  head: ReactNode;
  /** The body rows. */
  children: ReactNode;
  /** Names the scroll container as a region, for pages with several tables. */
  region?: string;
  /** The table's own accessible name, when the caption is not enough. */
  label?: string;
  testId?: string;
  /** The scroll container's test id, for specs that look for the whole block. */
  scrollTestId?: string;
  /** Attributes the e2e specs read off the caption. */
  captionTestId?: string;
  captionSlice?: string;
  scrollClassName?: string;
  tableClassName?: string;
  captionClassName?: string;
  headClassName?: string;
};

export const TABLE_SCROLL_CLASS = "relative overflow-x-auto";
export const TABLE_CLASS = "min-w-full bg-white text-sm";
export const CAPTION_CLASS = "mb-1 text-left text-muted";
export const HIDDEN_CAPTION_CLASS = "sr-only";
export const HEAD_CLASS = "border-b border-line";

export function TableShell({
  caption,
  head,
  children,
  region,
  label,
  testId,
  scrollTestId,
  captionTestId,
  captionSlice,
  scrollClassName = TABLE_SCROLL_CLASS,
  tableClassName = TABLE_CLASS,
  captionClassName = CAPTION_CLASS,
  headClassName = HEAD_CLASS,
}: TableShellProps) {
  return (
    <div role={region === undefined ? undefined : "region"} aria-label={region} tabIndex={0} className={scrollClassName} data-testid={scrollTestId}>
      <table className={tableClassName} aria-label={label} data-testid={testId}>
        <caption className={captionClassName} data-testid={captionTestId} data-slice={captionSlice}>
          {caption}
        </caption>
        <thead className={headClassName === "" ? undefined : headClassName}>
          <tr>{head}</tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
