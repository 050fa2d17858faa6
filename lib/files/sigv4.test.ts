import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { EMPTY_PAYLOAD_SHA256, encodeRfc3986, signRequest, toAmzDate } from "./sigv4";

/**
 * AWS's published vectors: the SigV4 test suite (get-vanilla, post-vanilla,
 * https://docs.aws.amazon.com/general/latest/gr/signature-v4-test-suite.html)
 * and the four S3 examples of "Signature Calculations for the Authorization
 * Header: Transferring Payload in a Single Chunk"
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html).
 */
const SUITE = {
  region: "us-east-1",
  service: "service",
  credentials: { accessKeyId: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" },
  amzDate: "20150830T123600Z",
};
const S3 = {
  region: "us-east-1",
  service: "s3",
  credentials: { accessKeyId: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY" },
  amzDate: "20130524T000000Z",
};

describe("signRequest (AWS SigV4 test suite)", () => {
  it("get-vanilla", () => {
    const signed = signRequest({ ...SUITE, method: "GET", url: new URL("https://example.amazonaws.com/"), payloadHash: EMPTY_PAYLOAD_SHA256 });
    expect(signed.canonicalRequest).toBe(
      "GET\n/\n\nhost:example.amazonaws.com\nx-amz-date:20150830T123600Z\n\nhost;x-amz-date\ne3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    expect(signed.stringToSign).toBe(
      "AWS4-HMAC-SHA256\n20150830T123600Z\n20150830/us-east-1/service/aws4_request\nbb579772317eb040ac9ed261061d46c1f17a8133879d6129b6e1c25292927e63",
    );
    expect(signed.headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31",
    );
  });

  it("post-vanilla", () => {
    const signed = signRequest({ ...SUITE, method: "POST", url: new URL("https://example.amazonaws.com/"), payloadHash: EMPTY_PAYLOAD_SHA256 });
    expect(signed.signature).toBe("5da7c1a2acd57cee7505fc6676e4e544621c30862966e37dddb68e92efbe5d6b");
  });
});

describe("signRequest (S3 single-chunk examples)", () => {
  it("GET Object with a Range header", () => {
    const signed = signRequest({
      ...S3,
      method: "GET",
      url: new URL("https://examplebucket.s3.amazonaws.com/test.txt"),
      headers: { Range: "bytes=0-9", "x-amz-content-sha256": EMPTY_PAYLOAD_SHA256 },
      payloadHash: EMPTY_PAYLOAD_SHA256,
    });
    expect(signed.headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41",
    );
  });

  it("PUT Object, a name that needs encoding and a signed body", () => {
    const payloadHash = createHash("sha256").update("Welcome to Amazon S3.").digest("hex");
    expect(payloadHash).toBe("44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072");
    const signed = signRequest({
      ...S3,
      method: "PUT",
      url: new URL("https://examplebucket.s3.amazonaws.com/test$file.text"),
      headers: { Date: "Fri, 24 May 2013 00:00:00 GMT", "x-amz-storage-class": "REDUCED_REDUNDANCY", "x-amz-content-sha256": payloadHash },
      payloadHash,
    });
    expect(signed.canonicalRequest.split("\n")[1]).toBe("/test%24file.text");
    expect(signed.headers.authorization).toBe(
      "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class, Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd",
    );
  });

  it("GET Bucket Lifecycle: a query parameter without a value", () => {
    const signed = signRequest({
      ...S3,
      method: "GET",
      url: new URL("https://examplebucket.s3.amazonaws.com/?lifecycle"),
      headers: { "x-amz-content-sha256": EMPTY_PAYLOAD_SHA256 },
      payloadHash: EMPTY_PAYLOAD_SHA256,
    });
    expect(signed.canonicalRequest.split("\n")[2]).toBe("lifecycle=");
    expect(signed.signature).toBe("fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543");
  });

  it("GET Bucket (List Objects): query parameters sorted", () => {
    const signed = signRequest({
      ...S3,
      method: "GET",
      url: new URL("https://examplebucket.s3.amazonaws.com/?prefix=J&max-keys=2"),
      headers: { "x-amz-content-sha256": EMPTY_PAYLOAD_SHA256 },
      payloadHash: EMPTY_PAYLOAD_SHA256,
    });
    expect(signed.canonicalRequest.split("\n")[2]).toBe("max-keys=2&prefix=J");
    expect(signed.signature).toBe("34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7");
  });
});

describe("helpers", () => {
  it("encodes as RFC 3986 wants", () => {
    expect(encodeRfc3986("a b*c'(d)!~")).toBe("a%20b%2Ac%27%28d%29%21~");
  });

  it("formats the request time", () => {
    expect(toAmzDate(new Date("2015-08-30T12:36:00.000Z"))).toBe("20150830T123600Z");
  });
});
