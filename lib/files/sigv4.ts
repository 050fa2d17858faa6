import { createHash, createHmac } from "node:crypto";

/**
 * AWS Signature Version 4 for one HTTP request, header-based
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html).
 * Pure: the time comes in as `amzDate`, so the published test vectors
 * (sigv4.test.ts) reproduce exactly. The S3 file store signs every request
 * with it; S3 wants the payload's SHA-256 in x-amz-content-sha256 as well,
 * which the caller adds to `headers` (content-addressed files know theirs).
 */
export type SigV4Credentials = { accessKeyId: string; secretAccessKey: string; sessionToken?: string };

export type SigV4Request = {
  method: string;
  url: URL;
  /** Headers to sign besides host and x-amz-date (names in any case). */
  headers?: Record<string, string>;
  /** Lower-case hex SHA-256 of the body, or "UNSIGNED-PAYLOAD". */
  payloadHash: string;
  region: string;
  service: string;
  credentials: SigV4Credentials;
  /** ISO 8601 basic format, UTC: 20150830T123600Z. */
  amzDate: string;
};

export type SignedRequest = {
  /** Every header to send (the given ones, host, x-amz-date, the token and Authorization), lower-case names. */
  headers: Record<string, string>;
  canonicalRequest: string;
  stringToSign: string;
  signature: string;
};

export const EMPTY_PAYLOAD_SHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

function sha256Hex(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

function hmac(key: string | Buffer, text: string): Buffer {
  return createHmac("sha256", key).update(text, "utf8").digest();
}

/** RFC 3986 percent-encoding as SigV4 wants it: only A-Z a-z 0-9 - _ . ~ stay as they are. */
export function encodeRfc3986(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The path with each segment encoded once (S3 style: no double encoding, no dot-segment removal). */
function canonicalPath(url: URL): string {
  const decoded = url.pathname.split("/").map((segment) => encodeRfc3986(decodeURIComponent(segment)));
  return decoded.join("/") || "/";
}

function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams.entries()].map(([name, value]) => [encodeRfc3986(name), encodeRfc3986(value)] as const);
  pairs.sort(([nameA, valueA], [nameB, valueB]) => (nameA === nameB ? (valueA < valueB ? -1 : 1) : nameA < nameB ? -1 : 1));
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

export function signRequest(request: SigV4Request): SignedRequest {
  const dateStamp = request.amzDate.slice(0, 8);
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  headers.host = request.url.host;
  headers["x-amz-date"] = request.amzDate;
  if (request.credentials.sessionToken) headers["x-amz-security-token"] = request.credentials.sessionToken;

  const names = Object.keys(headers).sort();
  const canonicalHeaders = names.map((name) => `${name}:${(headers[name] ?? "").trim().replace(/\s+/g, " ")}\n`).join("");
  const signedHeaders = names.join(";");
  const canonicalRequest = [request.method.toUpperCase(), canonicalPath(request.url), canonicalQuery(request.url), canonicalHeaders, signedHeaders, request.payloadHash].join("\n");

  const scope = `${dateStamp}/${request.region}/${request.service}/aws4_request`;
  const stringToSign = ["AWS4-HMAC-SHA256", request.amzDate, scope, sha256Hex(canonicalRequest)].join("\n");
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${request.credentials.secretAccessKey}`, dateStamp), request.region), request.service), "aws4_request");
  const signature = createHmac("sha256", signingKey).update(stringToSign, "utf8").digest("hex");

  headers.authorization = `AWS4-HMAC-SHA256 Credential=${request.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`;
  return { headers, canonicalRequest, stringToSign, signature };
}

/** 2015-08-30T12:36:00.000Z -> 20150830T123600Z */
export function toAmzDate(date: Date): string {
  return date.toISOString().replace(/[-:]/g, "").replace(/\.\d{3}/, "");
}
