/** The address typed on sign-up, offered to the sign-in form that follows (app/sign-up/actions.ts). */
export const SIGN_UP_EMAIL_COOKIE = "irc-sign-up-email";
export const SIGN_UP_EMAIL_MAX_AGE_S = 600;
