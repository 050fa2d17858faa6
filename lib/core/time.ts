/** Lengths of time in milliseconds (constants only: the core reads no clock). */
export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;
