import type { PValueBucket } from "@/lib/core/disclosure/disclose";
import { RANK_SIGNIFICANCE_LEVEL } from "@/lib/core/ranking/paired-ranks";

const NONE = "–";

/**
 * An exact p-value (the owner's own section 9 family, maintainers, the offline scorer), one rule
 * everywhere: 3 significant digits in plain decimals ("0.0312", "0.00428", "1.00"), "< 0.001" below
 * 0.001, and never a rounded "0.0500" for a p below the 5% level. The JSON keeps full precision.
 */
export function formatPValue(p: number): string {
  if (!Number.isFinite(p)) return NONE;
  if (p < 0.001) return "< 0.001";
  const text = p.toPrecision(3);
  if (p < RANK_SIGNIFICANCE_LEVEL && Number(text) >= RANK_SIGNIFICANCE_LEVEL) return `< ${RANK_SIGNIFICANCE_LEVEL}`;
  return text;
}

/** An exact p in a sentence: "p = 0.0312", "p < 0.001" (formatPValue's rule). */
export function formatPStatement(p: number): string {
  const text = formatPValue(p);
  return text.startsWith("<") ? `p ${text}` : `p = ${text}`;
}

/** A p bucket (protocol section 12) as people read it: "< 0.01", "≥ 0.05" (the API's ">= 0.05" is for programs). */
export function formatPBucketValue(bucket: PValueBucket): string {
  return bucket === ">= 0.05" ? "≥ 0.05" : bucket;
}

/** A p bucket in a sentence: "p < 0.01", "p ≥ 0.05". The one way pages, exports for people and the client write a public p. */
export function formatPBucket(bucket: PValueBucket): string {
  return `p ${formatPBucketValue(bucket)}`;
}
