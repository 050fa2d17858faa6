import { z } from "zod";
import { hasControlCharacters } from "@/lib/core/accounts/control-characters";

/**
 * Account input, shared by the browser forms, the server actions, the route
 * handlers and the CLI. Emails are trimmed and lower-cased before anything
 * else sees them, so "Ada@Example.org" and "ada@example.org" are one account.
 */
export const PASSWORD_MIN_LENGTH = 10;
const PASSWORD_MAX_LENGTH = 256;

export const emailSchema = z
  .string({ error: "Enter your email address." })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "Enter a valid email address, like name@example.org." }).max(254, { error: "Email is too long." }));

export const newPasswordSchema = z
  .string({ error: "Choose a password." })
  .min(PASSWORD_MIN_LENGTH, { error: `Use at least ${PASSWORD_MIN_LENGTH} characters.` })
  .max(PASSWORD_MAX_LENGTH, { error: `Use at most ${PASSWORD_MAX_LENGTH} characters.` });

export const displayNameSchema = z
  .string({ error: "Enter a display name." })
  .trim()
  .min(2, { error: "Use at least 2 characters." })
  .max(60, { error: "Use at most 60 characters." })
  .refine((value) => !hasControlCharacters(value), { error: "Use letters, digits, spaces and punctuation only." });

export const affiliationSchema = z
  .string()
  .trim()
  .max(120, { error: "Use at most 120 characters." })
  .refine((value) => !hasControlCharacters(value), { error: "Use letters, digits, spaces and punctuation only." });

export const signInSchema = z.object({
  email: emailSchema,
  password: z.string().min(1, { error: "Enter your password." }).max(PASSWORD_MAX_LENGTH),
});

export const signUpSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  displayName: displayNameSchema,
  affiliation: affiliationSchema.default(""),
});

export type SignUpInput = z.infer<typeof signUpSchema>;
