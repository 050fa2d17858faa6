"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { formText, invalidFormState, type FormState } from "@/lib/core/accounts/form-state";
import { formStateFromError } from "@/lib/domain/accounts/form-state-from-error";
import { profileSchema } from "@/lib/core/accounts/user-schemas";
import { updateProfile } from "@/lib/domain/accounts/update-profile";

export async function updateProfileAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { displayName: formText(formData, "displayName"), affiliation: formText(formData, "affiliation") };
  const parsed = profileSchema.safeParse(values);
  if (!parsed.success) return invalidFormState(parsed.error, values);
  try {
    const profile = await updateProfile({ actor: await getActor(), ...parsed.data });
    revalidatePath("/", "layout");
    return { status: "success", message: "Profile saved.", values: { displayName: profile.displayName, affiliation: profile.affiliation } };
  } catch (error) {
    return formStateFromError(error, values);
  }
}
