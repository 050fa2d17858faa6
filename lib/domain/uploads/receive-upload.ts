import "server-only";
import { Readable, pipeline } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import Busboy from "busboy";
import { getEnv } from "@/lib/platform/env";
import { AppError, isAppError } from "@/lib/core/errors";
import { discardStagedFile, stageUpload, sweepStagedFiles, tooLargeError, type StagedFile } from "@/lib/platform/files/staging";
import { findNulByte } from "@/lib/core/input/parse-input";
import { uploadFieldsSchema, type UploadFields } from "@/lib/core/submissions/schemas";
import { logger } from "@/lib/platform/logger";

type ReceivedUpload = { staged: StagedFile; originalName: string; fields: UploadFields };

/** How often a web process removes its machine's old staged files (a process killed mid-upload leaves them). */
const STAGING_SWEEP_INTERVAL_MS = 10 * 60 * 1000;
let lastStagingSweepAt = 0;

function sweepStagingNowAndThen(): void {
  if (Date.now() - lastStagingSweepAt < STAGING_SWEEP_INTERVAL_MS) return;
  lastStagingSweepAt = Date.now();
  sweepStagedFiles().catch((error: unknown) => console.error("[upload] sweeping old staged files failed", error));
}

/** Multipart overhead allowed on top of the file itself when checking Content-Length up front. */
const MULTIPART_SLACK = 64 * 1024;

type ReceivedParts = { staged?: StagedFile; originalName: string; rawFields: Record<string, string> };

/** A staging fault on our side (disk full, store unwritable): the uploader can only retry later. */
function toStagingError(error: unknown): AppError {
  if (isAppError(error)) return error;
  logger.error({ err: error }, "upload: staging failed");
  return new AppError("unavailable", "We could not store your upload on our side. Nothing was scored and no quota was used; please try again in a few minutes.", {
    retryAfterSeconds: 60,
  });
}

function toStreamError(error: unknown): AppError {
  if (isAppError(error)) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new AppError("bad_request", `The upload was interrupted before it finished (${message}). Nothing was stored and no quota was used.`);
}

/**
 * Streams the multipart body through busboy. Every way it can end settles the
 * promise: the body's end, a client abort, a malformed body, a refusal while
 * staging (over the limit, store unwritable). On a failure the body is no
 * longer read (the response goes out at once) and the staged file is removed
 * before the promise rejects, so no descriptor or .part file is left behind.
 */
function readParts(body: WebReadableStream, contentType: string, maxBytes: number): Promise<ReceivedParts> {
  let busboy: Busboy.Busboy;
  try {
    busboy = Busboy({ headers: { "content-type": contentType }, limits: { files: 1, fields: 10, fieldSize: 1024 } });
  } catch {
    return Promise.reject(new AppError("bad_request", "The multipart body could not be read (missing boundary?)."));
  }
  const source = Readable.fromWeb(body);
  const parts: ReceivedParts = { originalName: "predictions.jsonl", rawFields: {} };
  let stagedPromise: Promise<StagedFile> | undefined;
  let isSettled = false;

  return new Promise<ReceivedParts>((resolve, reject) => {
    const fail = (error: AppError) => {
      if (isSettled) return;
      isSettled = true;
      // Destroying busboy destroys the file stream, so stageUpload closes and removes its .part file.
      busboy.destroy();
      source.destroy();
      const cleanup = stagedPromise ? stagedPromise.then(discardStagedFile, () => undefined) : Promise.resolve();
      void cleanup.finally(() => reject(error));
    };
    busboy.on("field", (name, value) => {
      parts.rawFields[name] = value;
    });
    busboy.on("file", (name, stream, info) => {
      // Its errors reach us through stageUpload or the pipeline; destroying busboy errors it even before staging reads it.
      stream.on("error", () => undefined);
      if (name !== "file" || stagedPromise) {
        stream.resume();
        return;
      }
      parts.originalName = info.filename || parts.originalName;
      stagedPromise = stageUpload(stream, maxBytes);
      // Answer as soon as staging refuses (limit crossed, store unwritable): never wait for the rest of the body.
      stagedPromise.catch((error: unknown) => fail(toStagingError(error)));
    });
    // pipeline forwards errors both ways (a plain .pipe() does not: a client abort was an uncaughtException).
    pipeline(source, busboy, (error) => {
      if (error) {
        fail(toStreamError(error));
        return;
      }
      if (!stagedPromise) {
        if (!isSettled) {
          isSettled = true;
          resolve(parts);
        }
        return;
      }
      stagedPromise.then(
        (staged) => {
          if (isSettled) return;
          isSettled = true;
          resolve({ ...parts, staged });
        },
        () => undefined,
      );
    });
  });
}

/**
 * Streams a multipart/form-data upload (field "file", optional "split" and
 * "track") to a staged file. The size limit is enforced on Content-Length
 * before reading and again byte by byte while streaming (a chunked body is
 * refused as soon as it crosses the limit), before any parsing.
 */
export async function receiveUpload(request: Request): Promise<ReceivedUpload> {
  const maxBytes = getEnv().UPLOAD_MAX_BYTES;
  const contentType = request.headers.get("content-type") ?? "";
  if (!contentType.toLowerCase().startsWith("multipart/form-data")) {
    throw new AppError("bad_request", 'Send the predictions as multipart/form-data with the file in a field named "file" (curl -F file=@preds.jsonl).');
  }
  const declaredLength = Number(request.headers.get("content-length") ?? "0");
  if (declaredLength > maxBytes + MULTIPART_SLACK) throw tooLargeError(maxBytes);
  if (!request.body) throw new AppError("bad_request", "The request has no body.");
  sweepStagingNowAndThen();

  const { staged, originalName, rawFields } = await readParts(request.body as WebReadableStream, contentType, maxBytes);
  if (!staged) {
    throw new AppError("validation", 'No file was sent. Put the predictions in a form field named "file".');
  }
  if (findNulByte({ filename: originalName, ...rawFields }) !== null) {
    await discardStagedFile(staged);
    throw new AppError("validation", "The file name or a form field contains a NUL character (\\u0000), which cannot be stored; rename the file or remove it.");
  }
  const fields = uploadFieldsSchema.safeParse({
    split: rawFields.split || undefined,
    track: rawFields.track || undefined,
  });
  if (!fields.success) {
    await discardStagedFile(staged);
    throw new AppError("validation", 'The "split" field must be dev or test and "track" open or closed (or leave them out: both are read from the file).');
  }
  return { staged, originalName, fields: fields.data };
}
