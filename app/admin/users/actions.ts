"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/auth/get-actor";
import { formText, invalidFormState, type FormState } from "@/lib/auth/form-state";
import { formStateFromError } from "@/lib/auth/form-state-from-error";
import { changeUserRole } from "@/lib/users/change-user-role";
import { approvalChangeSchema, roleChangeSchema } from "@/lib/users/schemas";
import { setUserApproval } from "@/lib/users/set-user-approval";

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

export async function changeApprovalAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { approved: formText(formData, "approved") === "true", reason: formText(formData, "reason") };
  const parsed = approvalChangeSchema.safeParse(values);
  if (!parsed.success) return invalidFormState(parsed.error, { reason: values.reason });
  try {
    const change = await setUserApproval({
      actor: await getActor(),
      userId: formText(formData, "userId"),
      isApproved: parsed.data.approved,
      reason: parsed.data.reason,
    });
    revalidatePath("/admin/users");
    const label = change.approvedAt ? "approved" : "not approved";
    return { status: "success", message: change.isChanged ? `Now ${label}.` : `Already ${label}.` };
  } catch (error) {
    return formStateFromError(error, { reason: values.reason });
  }
}
