import { AppError } from "@/lib/core/errors";

/** Runs an operation that must fail with an AppError and returns it (anything else fails the test). */
export async function caught(run: () => Promise<unknown>): Promise<AppError> {
  const error = await run().then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${error === undefined ? "success" : String(error)}`);
  return error;
}
