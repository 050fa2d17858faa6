import "server-only";
import { Readable } from "node:stream";
import Busboy from "busboy";
import { getEnv } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { discardStagedFile, stageUpload, tooLargeError, type StagedFile } from "@/lib/submissions/file-store";
import { uploadFieldsSchema, type UploadFields } from "@/lib/submissions/schemas";

export type ReceivedUpload = { staged: StagedFile; originalName: string; fields: UploadFields };

/** Multipart overhead allowed on top of the file itself when checking Content-Length up front. */
const MULTIPART_SLACK = 64 * 1024;

/**
 * Streams a multipart/form-data upload (field "file", optional "split" and
 * "track") to a staged file. The size limit is enforced on Content-Length
 * before reading and again byte by byte while streaming, before any parsing.
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

  const rawFields: Record<string, string> = {};
  let stagedPromise: Promise<StagedFile> | undefined;
  let originalName = "predictions.jsonl";

  await new Promise<void>((resolve, reject) => {
    let busboy: Busboy.Busboy;
    try {
      busboy = Busboy({ headers: { "content-type": contentType }, limits: { files: 1, fields: 10, fieldSize: 1024 } });
    } catch {
      reject(new AppError("bad_request", "The multipart body could not be read (missing boundary?)."));
      return;
    }
    busboy.on("field", (name, value) => {
      rawFields[name] = value;
    });
    busboy.on("file", (name, stream, info) => {
      if (name !== "file") {
        stream.resume();
        return;
      }
      originalName = info.filename || originalName;
      stagedPromise = stageUpload(stream, maxBytes);
      // Keep draining after a refusal so the request can finish cleanly.
      stagedPromise.catch(() => stream.resume());
    });
    busboy.on("error", (error) => reject(new AppError("bad_request", `The upload was interrupted: ${(error as Error).message}`)));
    busboy.on("close", () => resolve());
    Readable.fromWeb(request.body as import("node:stream/web").ReadableStream).pipe(busboy);
  });

  if (!stagedPromise) {
    throw new AppError("validation", 'No file was sent. Put the predictions in a form field named "file".');
  }
  const staged = await stagedPromise;
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
