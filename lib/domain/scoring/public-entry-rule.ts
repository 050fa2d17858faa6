import type { Prisma } from "@/lib/platform/generated/prisma";

/**
 * Which submissions the public may see (the storage contract, protocol
 * section 12): a baseline (baselines are always public), or a published entry
 * of the test split. Everything else is answered exactly like an id that does
 * not exist. Written once, as the clauses below; the TypeScript predicate,
 * the Prisma `where` and the SQL fragment are all made from them, so the
 * three cannot disagree.
 */
const PUBLIC_WHEN = [{ isBaseline: true }, { publication: "PUBLISHED", split: "test" }] as const satisfies readonly Prisma.SubmissionWhereInput[];

const COLUMNS = ["isBaseline", "publication", "split"] as const;
type Column = (typeof COLUMNS)[number];
type VisibilityFields = Record<Column, unknown>;

function isColumn(key: string): key is Column {
  return (COLUMNS as readonly string[]).includes(key);
}

/** For a row already loaded (needs isBaseline, publication, split). */
export function isPublicEntry(submission: VisibilityFields): boolean {
  return PUBLIC_WHEN.some((clause) => Object.entries(clause).every(([column, value]) => isColumn(column) && submission[column] === value));
}

/** For a Prisma query: `where: { AND: [PUBLIC_ENTRY_WHERE, ...] }`. */
export const PUBLIC_ENTRY_WHERE: Prisma.SubmissionWhereInput = { OR: PUBLIC_WHEN.map((clause) => ({ ...clause })) };

function sqlLiteral(value: boolean | string): string {
  return typeof value === "boolean" ? String(value).toUpperCase() : `'${value.replaceAll("'", "''")}'`;
}

/** For raw SQL over "Submission" aliased `alias`: `WHERE ${publicEntrySql("s")}`. */
export function publicEntrySql(alias: string): string {
  const clauses = PUBLIC_WHEN.map((clause) => Object.entries(clause).map(([column, value]) => `${alias}."${column}" = ${sqlLiteral(value)}`).join(" AND "));
  return `(${clauses.map((clause) => `(${clause})`).join(" OR ")})`;
}
