/**
 * Content negotiation for precompressed bodies (RFC 9110 section 12.5.3):
 * brotli, then gzip, then the body as it is. A coding is acceptable when its
 * q-value (or that of "*") is above zero; ties go to brotli, the smaller one.
 */

export type BodyEncoding = "br" | "gzip" | "identity";

function qualities(header: string): Map<string, number> {
  const result = new Map<string, number>();
  for (const part of header.split(",")) {
    const [name = "", ...parameters] = part.split(";").map((piece) => piece.trim());
    if (name === "") continue;
    let quality = 1;
    for (const parameter of parameters) {
      const match = /^q=([0-9.]+)$/i.exec(parameter);
      if (match?.[1] !== undefined) quality = Number(match[1]);
    }
    result.set(name.toLowerCase(), Number.isFinite(quality) ? quality : 0);
  }
  return result;
}

export function chooseBodyEncoding(header: string | null): BodyEncoding {
  if (header === null || header.trim() === "") return "identity";
  const accepted = qualities(header);
  const any = accepted.get("*") ?? 0;
  const br = accepted.get("br") ?? any;
  const gzip = accepted.get("gzip") ?? accepted.get("x-gzip") ?? any;
  if (br > 0 && br >= gzip) return "br";
  if (gzip > 0) return "gzip";
  return "identity";
}
