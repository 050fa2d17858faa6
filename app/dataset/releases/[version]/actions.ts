"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { formText, invalidFormState, type FormState } from "@/lib/core/accounts/form-state";
import { formStateFromError } from "@/lib/domain/accounts/form-state-from-error";
import { supersedeReleaseSchema } from "@/lib/core/accounts/release-form-schemas";
import { supersedeRelease } from "@/lib/domain/releases/supersede-release";

/** The maintainer's form on a release page: mark it superseded by another release, or take the mark back (audited). */
export async function supersedeReleaseAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { action: formText(formData, "action"), supersededBy: formText(formData, "supersededBy"), reason: formText(formData, "reason") };
  const parsed = supersedeReleaseSchema.safeParse(values);
  if (!parsed.success) return invalidFormState(parsed.error, values);
  try {
    const result = await supersedeRelease({ actor: await getActor(), version: formText(formData, "version"), change: parsed.data });
    revalidatePath("/dataset/releases", "layout");
    if (result.supersededBy === null) {
      return { status: "success", message: result.isChanged ? `Release ${result.version} is no longer marked superseded.` : `Release ${result.version} was not marked superseded.` };
    }
    return { status: "success", message: result.isChanged ? `Release ${result.version} is now superseded by ${result.supersededBy}.` : `Release ${result.version} was already superseded by ${result.supersededBy}.` };
  } catch (error) {
    return formStateFromError(error, values);
  }
}
