import NextAuth from "next-auth";
import type { NextRequest } from "next/server";
import { getAuthOptions } from "@/lib/domain/accounts/auth-options";

type NextAuthContext = { params: Promise<{ nextauth: string[] }> };

// Options are built per process on the first request, not at import (the build has no secrets).
async function handler(request: NextRequest, context: NextAuthContext): Promise<Response> {
  return NextAuth(request, context, getAuthOptions());
}

export { handler as GET, handler as POST };
