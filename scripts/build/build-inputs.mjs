/**
 * The input records of the ahead-of-time bundles (scripts/build/build-cli.mjs,
 * scripts/build/build-server.mjs): each input file's size, mtime and SHA-256 when
 * the bundle was built, and the check that none of them changed since.
 */
import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import path from "node:path";

export function sha256File(file) {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}

/** What a bundle's stamp records of one input, a path relative to `root`. */
export function describeInput(root, relative) {
  const file = path.join(root, relative);
  const info = statSync(file);
  return { bytes: info.size, mtimeMs: info.mtimeMs, sha256: sha256File(file) };
}

/** True when every recorded input still has its size, and its mtime or else its SHA-256. */
export function inputsUnchanged(root, inputs) {
  for (const [relative, recorded] of Object.entries(inputs ?? {})) {
    let info;
    try {
      info = statSync(path.join(root, relative));
    } catch {
      return false;
    }
    if (info.size !== recorded.bytes) return false;
    if (info.mtimeMs !== recorded.mtimeMs && sha256File(path.join(root, relative)) !== recorded.sha256) return false;
  }
  return true;
}
