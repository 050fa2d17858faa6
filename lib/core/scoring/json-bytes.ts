/**
 * The bytes of JSON Lines syntax that the byte scanners look for
 * (scan-closed-predictions.ts). Exported constants of their own module: the
 * bundler writes them into the hot loops as literals, where a property of a
 * constant object or a constant of the same file stays a load at every byte.
 */
export const TAB = 0x09;
export const LF = 0x0a;
export const CR = 0x0d;
export const SPACE = 0x20;
export const QUOTE = 0x22;
export const COMMA = 0x2c;
export const COLON = 0x3a;
export const BRACKET_OPEN = 0x5b;
export const BACKSLASH = 0x5c;
export const BRACKET_CLOSE = 0x5d;
export const BRACE_OPEN = 0x7b;
export const BRACE_CLOSE = 0x7d;
export const DIGIT_ZERO = 0x30;
export const LETTER_Q = 0x51;
