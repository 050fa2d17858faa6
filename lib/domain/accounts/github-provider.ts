import "server-only";
import GithubProvider from "next-auth/providers/github";
import type { OAuthConfig } from "next-auth/providers/oauth";
import type { GithubProfile } from "next-auth/providers/github";
import { z } from "zod";

const githubUserSchema = z
  .object({ id: z.number(), login: z.string(), name: z.string().nullable().optional(), avatar_url: z.string().optional() })
  .passthrough();

const githubEmailsSchema = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

async function fetchGithub(path: string, accessToken: string): Promise<unknown> {
  const response = await fetch(`https://api.github.com${path}`, {
    headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/vnd.github+json", "User-Agent": "irc-bench" },
  });
  if (!response.ok) throw new Error(`GitHub ${path} answered ${response.status}`);
  return response.json();
}

/** The primary address if GitHub has verified it, else any verified one, else null. */
export function pickVerifiedEmail(emails: z.infer<typeof githubEmailsSchema>): string | null {
  const verified = emails.filter((entry) => entry.verified);
  return (verified.find((entry) => entry.primary) ?? verified[0])?.email ?? null;
}

/**
 * GitHub sign-in that only ever reports a verified email. next-auth's stock
 * provider falls back to an unverified address, which would let someone claim
 * another person's account by adding that address to their GitHub profile.
 */
export function createGithubProvider(clientId: string, clientSecret: string): OAuthConfig<GithubProfile> {
  return GithubProvider({
    clientId,
    clientSecret,
    userinfo: {
      url: "https://api.github.com/user",
      async request({ tokens }) {
        const accessToken = tokens.access_token;
        if (!accessToken) throw new Error("GitHub returned no access token");
        const user = githubUserSchema.parse(await fetchGithub("/user", accessToken));
        const emails = githubEmailsSchema.parse(await fetchGithub("/user/emails", accessToken));
        return { ...user, name: user.name ?? undefined, email: pickVerifiedEmail(emails) ?? undefined };
      },
    },
  });
}
