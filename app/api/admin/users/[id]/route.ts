import { NextResponse } from "next/server";
import { requireMaintainer } from "@/lib/auth/actor";
import { getActor } from "@/lib/auth/get-actor";
import { parseInput, readJsonBody } from "@/lib/auth/parse-input";
import { errorResponse } from "@/lib/http";
import { changeUserRole } from "@/lib/users/change-user-role";
import { roleChangeSchema } from "@/lib/users/schemas";

export const dynamic = "force-dynamic";

/**
 * PATCH /api/admin/users/:id {role: "PARTICIPANT" | "MAINTAINER", reason?}:
 * promote or demote (maintainer session only; 409 for the last maintainer).
 */
export async function PATCH(request: Request, context: { params: Promise<{ id: string }> }) {
  try {
    const actor = requireMaintainer(await getActor(request));
    const { id } = await context.params;
    const input = parseInput(roleChangeSchema, await readJsonBody(request));
    const change = await changeUserRole({ actor, userId: id, ...input });
    return NextResponse.json(change, { headers: { "Cache-Control": "no-store" } });
  } catch (error) {
    return errorResponse(error);
  }
}
