/**
 * RFC 8785 (JSON Canonicalization Scheme) for the values the public log holds:
 * objects, arrays, strings, safe integers, booleans and null. Objects' members
 * are sorted by their names' UTF-16 code units; strings are escaped as
 * ECMAScript's JSON.stringify does (which is what RFC 8785 section 3.2.2.2
 * prescribes); integers are written as ECMAScript writes them. A fraction or
 * an unsafe integer is refused: the log never holds one, so no float
 * serialisation (RFC 8785 section 3.2.2.3) is needed to verify it.
 */

export type CanonicalValue = string | number | boolean | null | readonly CanonicalValue[] | { readonly [key: string]: CanonicalValue };

export function canonicalJson(value: CanonicalValue): string {
  if (value === null || typeof value === "boolean") return JSON.stringify(value);
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") {
    if (!Number.isSafeInteger(value)) throw new TypeError(`canonicalJson: ${value} is not a safe integer (the public log holds integers and strings only)`);
    // -0 is written 0 (RFC 8785 section 3.2.2.3).
    return Object.is(value, -0) ? "0" : String(value);
  }
  if (Array.isArray(value)) return `[${value.map((item: CanonicalValue) => canonicalJson(item)).join(",")}]`;
  const record = value as { readonly [key: string]: CanonicalValue };
  // Default sort compares UTF-16 code units, as RFC 8785 section 3.2.3 requires.
  const names = Object.keys(record).filter((name) => record[name] !== undefined).sort();
  return `{${names.map((name) => `${JSON.stringify(name)}:${canonicalJson(record[name] as CanonicalValue)}`).join(",")}}`;
}
