import "server-only";
import type { AuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getAuthSecret, isSecureCookieDeployment, SESSION_MAX_AGE_SECONDS } from "@/lib/domain/accounts/auth-config";
import { createGithubProvider } from "@/lib/domain/accounts/github-provider";
import { GITHUB_EMAIL_UNVERIFIED_CODE, SIGN_IN_UNAVAILABLE_CODE, tooManyAttemptsCode } from "@/lib/core/accounts/sign-in-errors";
import { signInWithPassword } from "@/lib/domain/accounts/sign-in-with-password";
import { db } from "@/lib/platform/db";
import { getEnv } from "@/lib/platform/env";
import { isAppError } from "@/lib/core/errors";
import { requestIp } from "@/lib/platform/rate-limit/request-ip";
import { findUserIdByOAuthAccount, linkOAuthAccount } from "@/lib/domain/accounts/link-oauth-account";
import { logger } from "@/lib/platform/logger";

const credentialsProvider = CredentialsProvider({
  id: "credentials",
  name: "Email and password",
  credentials: {
    email: { label: "Email", type: "email" },
    password: { label: "Password", type: "password" },
  },
  async authorize(credentials, request) {
    try {
      const user = await signInWithPassword({
        email: credentials?.email,
        password: credentials?.password,
        ip: requestIp(request.headers),
      });
      return user ? { id: user.id, name: user.displayName } : null;
    } catch (error) {
      // next-auth puts the message in the sign-in page's URL (?error=<code>): only codes go there.
      if (isAppError(error) && error.code === "rate_limited") {
        throw new Error(tooManyAttemptsCode(error.retryAfterSeconds ?? 60));
      }
      logger.error({ err: error }, "auth: sign-in failed unexpectedly");
      throw new Error(SIGN_IN_UNAVAILABLE_CODE);
    }
  },
});

function buildAuthOptions(): AuthOptions {
  const env = getEnv();
  const providers: AuthOptions["providers"] = [credentialsProvider];
  if (env.GITHUB_ID && env.GITHUB_SECRET) providers.push(createGithubProvider(env.GITHUB_ID, env.GITHUB_SECRET));

  return {
    secret: getAuthSecret(),
    // JWT sessions: nothing to store server-side, and they survive restarts as
    // long as NEXTAUTH_SECRET stays the same. The role is not in the token:
    // getActor reads it from the database on every request.
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    useSecureCookies: isSecureCookieDeployment(),
    pages: { signIn: "/sign-in", error: "/sign-in" },
    providers,
    callbacks: {
      async signIn({ account, profile, user }) {
        if (account?.provider !== "github") return true;
        const verifiedEmail = typeof profile?.email === "string" && profile.email.length > 0 ? profile.email : null;
        if (!verifiedEmail) return `/sign-in?error=${GITHUB_EMAIL_UNVERIFIED_CODE}`;
        await linkOAuthAccount({
          provider: "github",
          providerAccountId: account.providerAccountId,
          verifiedEmail,
          name: user.name,
        });
        return true;
      },
      async jwt({ token, user, account }) {
        if (!account) return token;
        // On sign-in only: keep the database user id and nothing else.
        if (account.provider === "github") {
          const userId = await findUserIdByOAuthAccount("github", account.providerAccountId);
          return userId ? { sub: userId } : token;
        }
        return { sub: user.id };
      },
      // What useSession() and /api/auth/session show: the id, and the role and name as they are now.
      async session({ session, token }) {
        const user = token.sub
          ? await db.user.findUnique({ where: { id: token.sub }, select: { id: true, role: true, displayName: true } })
          : null;
        if (!user) return { expires: session.expires };
        return { expires: session.expires, user: { id: user.id, role: user.role, name: user.displayName } };
      },
    },
    logger: {
      // Never log request bodies: they hold passwords.
      error(code, metadata) {
        const message = metadata instanceof Error ? metadata.message : "";
        logger.error({ code }, `auth: ${code}${message ? `: ${message}` : ""}`);
      },
      warn(code) {
        logger.warn({ code }, `auth: ${code}`);
      },
      debug() {},
    },
  };
}

let cached: AuthOptions | undefined;

/** next-auth configuration, built on first use so a build without secrets still succeeds. */
export function getAuthOptions(): AuthOptions {
  cached ??= buildAuthOptions();
  return cached;
}
