"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { formText, invalidFormState, type FormState } from "@/lib/core/accounts/form-state";
import { formStateFromError } from "@/lib/domain/accounts/form-state-from-error";
import { createApiToken } from "@/lib/domain/accounts/create-api-token";
import { revokeApiToken } from "@/lib/domain/accounts/revoke-api-token";
import { createApiTokenSchema } from "@/lib/core/accounts/token-schemas";

export type CreateTokenState = FormState & { token?: string; tokenName?: string };

export async function createTokenAction(_previous: CreateTokenState, formData: FormData): Promise<CreateTokenState> {
  const values = { name: formText(formData, "name"), expiresInDays: formText(formData, "expiresInDays") };
  const parsed = createApiTokenSchema.safeParse(values);
  if (!parsed.success) return invalidFormState(parsed.error, values);
  try {
    const created = await createApiToken({ actor: await getActor(), ...parsed.data });
    revalidatePath("/account/tokens");
    return {
      status: "success",
      message: `Token "${created.apiToken.name}" created. Copy it now: it will not be shown again.`,
      token: created.token,
      tokenName: created.apiToken.name,
    };
  } catch (error) {
    return formStateFromError(error, values);
  }
}

export async function revokeTokenAction(_previous: FormState, formData: FormData): Promise<FormState> {
  try {
    const revoked = await revokeApiToken({ actor: await getActor(), tokenId: formText(formData, "tokenId") });
    revalidatePath("/account/tokens");
    return { status: "success", message: `Token "${revoked.name}" revoked.` };
  } catch (error) {
    return formStateFromError(error);
  }
}
