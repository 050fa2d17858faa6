/**
 * Strict UTF-8 decoding of one line (protocol section 4: a line that is not
 * valid UTF-8 is a problem of that line, never silently repaired). The decoder
 * is fatal, so no byte ever becomes U+FFFD, and keeps a byte-order mark in the
 * text (`ignoreBOM`): only line 1's BOM is ignored, and the caller decides.
 * A non-streaming decode() resets the decoder, so one instance serves every line.
 */

const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The line's text, or null when its bytes are not valid UTF-8. */
export function decodeUtf8Line(bytes: Uint8Array): string | null {
  try {
    return decoder.decode(bytes);
  } catch {
    return null;
  }
}
