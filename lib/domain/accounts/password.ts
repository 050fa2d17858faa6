import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashing with scrypt (node:crypto, no native add-on). The stored
 * string carries its own parameters, so they can be raised later without
 * invalidating existing hashes:
 *
 *   scrypt$<N>$<r>$<p>$<salt, base64url>$<hash, base64url>
 *
 * This module is pure (no database, no secrets) so the CLI, the e2e fixtures
 * and the unit tests share it with the web app.
 */
const SCHEME = "scrypt";
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

export const DEFAULT_SCRYPT_PARAMS = { N: 2 ** 15, r: 8, p: 1 } as const;

/** Stored parameters are trusted only up to these bounds (a corrupt row must not exhaust memory). */
const MAX_N = 2 ** 20;
const MAX_R = 32;
const MAX_P = 16;

type ScryptParams = { N: number; r: number; p: number };

function deriveKey(password: string, salt: Buffer, params: ScryptParams, keyLength: number): Promise<Buffer> {
  // scrypt needs 128 * N * r bytes; leave headroom over Node's 32 MiB default.
  const options: ScryptOptions = { N: params.N, r: params.r, p: params.p, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, keyLength, options, (error, key) => {
      if (error) reject(error);
      else resolve(key);
    });
  });
}

export async function hashPassword(password: string, params: ScryptParams = DEFAULT_SCRYPT_PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await deriveKey(password, salt, params, KEY_LENGTH);
  return [SCHEME, params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

type ParsedHash = { params: ScryptParams; salt: Buffer; key: Buffer };

function isPowerOfTwo(value: number): boolean {
  return Number.isInteger(value) && value > 1 && (value & (value - 1)) === 0;
}

export function parsePasswordHash(stored: string): ParsedHash | null {
  const parts = stored.split("$");
  if (parts.length !== 6 || parts[0] !== SCHEME) return null;
  const [, nText, rText, pText, saltText, keyText] = parts;
  const params = { N: Number(nText), r: Number(rText), p: Number(pText) };
  if (!isPowerOfTwo(params.N) || params.N > MAX_N) return null;
  if (!Number.isInteger(params.r) || params.r < 1 || params.r > MAX_R) return null;
  if (!Number.isInteger(params.p) || params.p < 1 || params.p > MAX_P) return null;
  const salt = Buffer.from(saltText ?? "", "base64url");
  const key = Buffer.from(keyText ?? "", "base64url");
  if (salt.length < 8 || key.length < 16) return null;
  return { params, salt, key };
}

/** True when `password` matches `stored`; false for a wrong password or an unreadable hash. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await deriveKey(password, parsed.salt, parsed.params, parsed.key.length);
  return timingSafeEqual(candidate, parsed.key);
}

/** True when a hash was made with weaker parameters than today's defaults. */
export function needsRehash(stored: string): boolean {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return true;
  return parsed.params.N < DEFAULT_SCRYPT_PARAMS.N || parsed.params.r < DEFAULT_SCRYPT_PARAMS.r;
}

/** A random password for accounts created from the command line (about 144 bits). */
export function generatePassword(): string {
  return randomBytes(18).toString("base64url");
}
