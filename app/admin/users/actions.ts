"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/get-actor";
import { formStateFromError, formText, invalidFormState, type FormState } from "@/lib/auth/form-state";
import { changeUserRole } from "@/lib/users/change-user-role";
import { roleChangeSchema } from "@/lib/users/schemas";

export async function changeRoleAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { role: formText(formData, "role"), reason: formText(formData, "reason") };
  const parsed = roleChangeSchema.safeParse(values);
  if (!parsed.success) return invalidFormState(parsed.error, { reason: values.reason });
  try {
    const change = await changeUserRole({ actor: await getActor(), userId: formText(formData, "userId"), ...parsed.data });
    revalidatePath("/admin/users");
    revalidatePath("/", "layout");
    const label = change.to === "MAINTAINER" ? "maintainer" : "participant";
    return { status: "success", message: change.isChanged ? `Now a ${label}.` : `Already a ${label}.` };
  } catch (error) {
    return formStateFromError(error, { reason: values.reason });
  }
}
