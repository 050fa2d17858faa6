import { z } from "zod";

export const MAX_TOKEN_EXPIRY_DAYS = 365;

const emptyToUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const createApiTokenSchema = z.object({
  name: z
    .string({ error: "Give the token a name." })
    .trim()
    .min(1, { error: "Give the token a name, for example the machine that will use it." })
    .max(60, { error: "Use at most 60 characters." }),
  /** Days until the token stops working; omitted or empty means it never expires. */
  expiresInDays: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "Expiry must be a number of days." })
      .int({ error: "Expiry must be a whole number of days." })
      .min(1, { error: "Expiry must be at least 1 day." })
      .max(MAX_TOKEN_EXPIRY_DAYS, { error: `Expiry must be at most ${MAX_TOKEN_EXPIRY_DAYS} days.` })
      .optional(),
  ),
});

export type CreateApiTokenInput = z.infer<typeof createApiTokenSchema>;
