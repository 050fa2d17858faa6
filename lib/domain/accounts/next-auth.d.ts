import type { DefaultSession } from "next-auth";
import type { Role } from "@/lib/platform/generated/prisma";

// The session next-auth hands to useSession() and /api/auth/session (see callbacks.session in auth-options.ts).
declare module "next-auth" {
  interface Session {
    user?: DefaultSession["user"] & { id: string; role: Role };
  }
}
