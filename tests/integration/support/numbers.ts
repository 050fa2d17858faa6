import { expect } from "vitest";

/**
 * Prisma's query compiler can move a float parameter by one ulp on the way to
 * PostgreSQL (prisma/prisma#22249). Scores are written around that (see
 * process-submission.ts); comparison rows are not, so they are compared to
 * within a few ulps. Integers must match exactly.
 */
const RELATIVE_TOLERANCE = 4 * Number.EPSILON;

export function isNearlyEqual(actual: number, expected: number): boolean {
  if (Object.is(actual, expected)) return true;
  return Math.abs(actual - expected) <= RELATIVE_TOLERANCE * Math.max(Math.abs(actual), Math.abs(expected));
}

/** Same keys, integers and strings equal, floats equal to within a few ulps. */
export function expectNearlyEqualRecords(actual: readonly Record<string, unknown>[], expected: readonly Record<string, unknown>[]): void {
  expect(actual.length).toBe(expected.length);
  actual.forEach((row, index) => {
    const wanted = expected[index] ?? {};
    expect(Object.keys(row).sort()).toEqual(Object.keys(wanted).sort());
    for (const [key, value] of Object.entries(row)) {
      const other = wanted[key];
      if (typeof value === "number" && typeof other === "number" && !(Number.isInteger(value) && Number.isInteger(other))) {
        if (!isNearlyEqual(value, other)) expect.fail(`row ${index} ${key}: ${value} is not ${other}`);
      } else {
        expect(value, `row ${index} ${key}`).toEqual(other);
      }
    }
  });
}
