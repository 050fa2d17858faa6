"use server";

import { revalidatePath } from "next/cache";
import { getActor } from "@/lib/domain/accounts/get-actor";
import { formText, invalidFormState, type FormState } from "@/lib/core/accounts/form-state";
import { formStateFromError } from "@/lib/domain/accounts/form-state-from-error";
import { changeUserRole } from "@/lib/domain/accounts/change-user-role";
import { adjustTestQuota } from "@/lib/domain/quotas/adjust-test-quota";
import { approvalChangeSchema, budgetGroupChangeSchema, quotaAdjustmentSchema, roleChangeSchema } from "@/lib/core/accounts/user-schemas";
import { changeBudgetGroup } from "@/lib/domain/accounts/change-budget-group";
import { setUserApproval } from "@/lib/domain/accounts/set-user-approval";

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

/** One-click approval from the waiting list: the confirmation names the account. */
export async function quickApproveAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const displayName = formText(formData, "displayName") || "The account";
  try {
    const change = await setUserApproval({ actor: await getActor(), userId: formText(formData, "userId"), isApproved: true });
    revalidatePath("/admin/users");
    return {
      status: "success",
      message: change.isChanged ? `Approved ${displayName}: test submissions are open to this account now.` : `${displayName} was approved already.`,
    };
  } catch (error) {
    return formStateFromError(error);
  }
}

/** A maintainer's grant or refund of one participant's test quota (/admin/users/:id). */
export async function adjustQuotaAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = {
    action: formText(formData, "action"),
    amount: formText(formData, "amount"),
    submissionId: formText(formData, "submissionId"),
    reason: formText(formData, "reason"),
  };
  const input = values.action === "grant" ? { action: values.action, amount: values.amount, reason: values.reason } : { action: values.action, submissionId: values.submissionId, reason: values.reason };
  const parsed = quotaAdjustmentSchema.safeParse(input);
  const echoed = { amount: values.amount, reason: values.reason };
  if (!parsed.success) return invalidFormState(parsed.error, echoed);
  const userId = formText(formData, "userId");
  try {
    const result = await adjustTestQuota({ actor: await getActor(), userId, adjustment: parsed.data });
    revalidatePath(`/admin/users/${userId}`);
    return {
      status: "success",
      message: result.action === "grant" ? `Granted ${result.amount} extra test ${result.amount === 1 ? "submission" : "submissions"}.` : "Refunded.",
    };
  } catch (error) {
    return formStateFromError(error, echoed);
  }
}

/** A maintainer links two approved accounts into one entries budget, or takes one out of its group (/admin/users/:id, protocol §12). */
export async function changeBudgetGroupAction(_previous: FormState, formData: FormData): Promise<FormState> {
  const values = { action: formText(formData, "action"), account: formText(formData, "account"), reason: formText(formData, "reason") };
  const input = values.action === "link" ? values : { action: values.action, reason: values.reason };
  const parsed = budgetGroupChangeSchema.safeParse(input);
  const echoed = { account: values.account, reason: values.reason };
  if (!parsed.success) return invalidFormState(parsed.error, echoed);
  const userId = formText(formData, "userId");
  try {
    const result = await changeBudgetGroup({ actor: await getActor(), userId, change: parsed.data });
    revalidatePath(`/admin/users/${userId}`);
    if (parsed.data.action === "unlink") return { status: "success", message: result.isChanged ? "Taken out of the shared entries budget." : "This account shares no entries budget." };
    const names = result.members.map((member) => member.displayName).join(", ");
    return { status: "success", message: result.isChanged ? `Linked: ${names} now share one entries budget.` : `Already linked: ${names}.` };
  } catch (error) {
    return formStateFromError(error, echoed);
  }
}
