import { createHash, createPrivateKey, createPublicKey, sign, verify, type KeyObject } from "node:crypto";
import { z } from "zod";
import { canonicalJson } from "./canonical-json";

/**
 * The signed head of the public log (docs/public-log.md): the last record's
 * seq and hash, signed with the operator's Ed25519 key (IRC_LOG_SIGNING_KEY,
 * 32 bytes of seed in base64). The signed bytes are the RFC 8785 canonical
 * JSON of {"log":"irc-bench-public-log","seq":SEQ,"hash":HASH}; an empty log's
 * head is seq 0 with the genesis hash.
 */

export const SIGNED_HEAD_CONTEXT = "irc-bench-public-log";

/** PKCS #8 DER of an Ed25519 private key is this prefix followed by its 32-byte seed (RFC 8410). */
const PKCS8_ED25519_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex");
/** SPKI DER of an Ed25519 public key is this prefix followed by its 32 bytes (RFC 8410). */
const SPKI_ED25519_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export const signedHeadSchema = z.object({
  seq: z.number().int().nonnegative(),
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  at: z.string().nullable(),
  keyId: z.string(),
  /** base64 of the 64-byte Ed25519 signature */
  signature: z.string(),
});
export type SignedHead = z.infer<typeof signedHeadSchema>;

export const logKeySchema = z.object({
  algorithm: z.literal("Ed25519"),
  /** base64 of the raw 32-byte public key */
  publicKey: z.string(),
  /** the same key as PEM (SubjectPublicKeyInfo) */
  publicKeyPem: z.string(),
  /** first 16 hex digits of SHA-256 of the raw public key */
  keyId: z.string(),
});
export type LogKey = z.infer<typeof logKeySchema>;

export function headPayload(head: { seq: number; hash: string }): string {
  return canonicalJson({ log: SIGNED_HEAD_CONTEXT, seq: head.seq, hash: head.hash });
}

/** The private key from IRC_LOG_SIGNING_KEY's value (base64 of a 32-byte seed); throws on anything else. */
export function signingKeyFromSeed(seedBase64: string): KeyObject {
  const seed = Buffer.from(seedBase64, "base64");
  if (seed.length !== 32) throw new Error("the log signing key must be 32 bytes in base64 (openssl rand -base64 32)");
  return createPrivateKey({ key: Buffer.concat([PKCS8_ED25519_PREFIX, seed]), format: "der", type: "pkcs8" });
}

export function describeLogKey(privateKey: KeyObject): LogKey {
  const publicKey = createPublicKey(privateKey);
  const raw = publicKey.export({ format: "der", type: "spki" }).subarray(SPKI_ED25519_PREFIX.length);
  return {
    algorithm: "Ed25519",
    publicKey: raw.toString("base64"),
    publicKeyPem: publicKey.export({ format: "pem", type: "spki" }).toString(),
    keyId: createHash("sha256").update(raw).digest("hex").slice(0, 16),
  };
}

export function signHead(privateKey: KeyObject, head: { seq: number; hash: string; at: string | null }): SignedHead {
  const signature = sign(null, Buffer.from(headPayload(head), "utf8"), privateKey).toString("base64");
  return { seq: head.seq, hash: head.hash, at: head.at, keyId: describeLogKey(privateKey).keyId, signature };
}

/** Whether `head`'s signature is the key's (raw 32-byte public key in base64). */
export function isHeadSignedBy(head: SignedHead, publicKeyBase64: string): boolean {
  const raw = Buffer.from(publicKeyBase64, "base64");
  if (raw.length !== 32) return false;
  const key = createPublicKey({ key: Buffer.concat([SPKI_ED25519_PREFIX, raw]), format: "der", type: "spki" });
  return verify(null, Buffer.from(headPayload(head), "utf8"), key, Buffer.from(head.signature, "base64"));
}
