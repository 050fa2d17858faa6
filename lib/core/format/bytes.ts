const KIB = 1024;
const MIB = 1024 * 1024;

/** A size as people read it: "512 B", "12.5 KiB", "64 MiB" (a whole number of units shows no decimal). */
export function formatBytes(bytes: number): string {
  if (bytes < KIB) return `${bytes} B`;
  const [unit, size] = bytes < MIB ? ["KiB", KIB] : ["MiB", MIB];
  return `${(bytes / size).toFixed(bytes % size === 0 ? 0 : 1)} ${unit}`;
}
