import { hasControlCharacters } from "@/lib/core/accounts/control-characters";
import { formatTooManyAttempts } from "@/lib/core/format/format-retry";

/**
 * next-auth reports sign-in failures as a short code in `?error=` or in the
 * result of `signIn()`. These are the only messages the sign-in page shows;
 * anything else in the URL becomes the generic message, so a crafted link
 * cannot put arbitrary text on the page.
 */
const INCORRECT_CREDENTIALS_MESSAGE = "Email or password is incorrect.";

/** Thrown by the credentials provider as `TooManyAttempts:<seconds>`. */
const TOO_MANY_ATTEMPTS_CODE = "TooManyAttempts";

export const GITHUB_EMAIL_UNVERIFIED_CODE = "GithubEmailUnverified";

/** Anything unexpected during a password sign-in (the details stay in the server log). */
export const SIGN_IN_UNAVAILABLE_CODE = "SignInUnavailable";

export function tooManyAttemptsCode(retryAfterSeconds: number): string {
  return `${TOO_MANY_ATTEMPTS_CODE}:${Math.max(1, Math.ceil(retryAfterSeconds))}`;
}

export function signInErrorMessage(code: string | null | undefined): string | null {
  if (!code) return null;
  const tooMany = new RegExp(`^${TOO_MANY_ATTEMPTS_CODE}:(\\d{1,6})$`).exec(code);
  if (tooMany?.[1]) return formatTooManyAttempts(Number(tooMany[1]));
  switch (code) {
    case "CredentialsSignin":
      return INCORRECT_CREDENTIALS_MESSAGE;
    case SIGN_IN_UNAVAILABLE_CODE:
      return "Signing in is not working right now. Please try again in a few minutes.";
    case GITHUB_EMAIL_UNVERIFIED_CODE:
      return "GitHub did not give us a verified email address. Verify one in your GitHub settings, then try again.";
    case "OAuthSignin":
    case "OAuthCallback":
    case "OAuthCreateAccount":
    case "Callback":
      return "Signing in with GitHub did not work. Please try again.";
    case "AccessDenied":
      return "Sign-in was refused for this account.";
    case "SessionRequired":
      return "Please sign in to continue.";
    default:
      return "Sign-in failed. Please try again.";
  }
}

/** Only same-site paths are followed after sign-in (no open redirects). */
export function safeCallbackPath(value: string | null | undefined, fallback = "/"): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return fallback;
  if (hasControlCharacters(value)) return fallback;
  return value;
}
