import { MAX_PREDICTION_LINE_BYTES } from "@/lib/core/scoring/limits";
import {
  PredictionValidator,
  type PredictionValidationResult,
  type PredictionValidatorOptions,
} from "@/lib/core/scoring/validate-predictions";
import { readLineBytes, type ByteSource } from "./read-line-bytes";

/**
 * Validates a prediction file (a path, or a stored file's chunks) (protocol section 4), streaming: each
 * line is measured and decoded on its own, so a line over 64 KiB or one that
 * is not valid UTF-8 is reported with its number, and no line is held beyond
 * the limit. The CLI, the upload pre-flight and the worker all call this.
 */
export async function validatePredictionFile(
  source: ByteSource,
  options: PredictionValidatorOptions,
): Promise<PredictionValidationResult> {
  const validator = new PredictionValidator(options);
  for await (const { bytes, byteLength, lineNo } of readLineBytes(source, { maxLineBytes: MAX_PREDICTION_LINE_BYTES })) {
    validator.addLineBytes(bytes, byteLength, lineNo);
  }
  return validator.finish();
}
