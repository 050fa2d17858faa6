/**
 * Holm's step-down adjustment of a family of p-values (section 9).
 *
 * With the m p-values sorted ascending, p_(1) <= ... <= p_(m), the adjusted
 * value of p_(j) is max over i <= j of min(1, (m - i + 1) p_(i)). The result is
 * monotone in the sorted order, capped at 1, and returned in input order.
 * Ties keep their input order (a stable sort), which does not change values.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((x, y) => x.p - y.p);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[index] = running;
  });
  return adjusted;
}
