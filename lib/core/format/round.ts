/**
 * A number kept to `digits` decimals, half up on the double as `toFixed` rounds
 * (0.0625 -> 0.063 at 3): the disclosed rates of protocol §12 and the values a
 * chart draws. A number, not text: the one place that rounds for people.
 */
export function roundTo(value: number, digits: number): number {
  return Number(value.toFixed(digits));
}
