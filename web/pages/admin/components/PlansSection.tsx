import { type FormEvent, useState } from "react";
import { firstProblem, RULES } from "../../../../common/validation";
import type { AdminPlan, PlanEdit } from "../../../api/admin";
import { FormActions } from "../../../components/EntityForm";
import { contentUrl } from "../../../lib/content";
import { succeed, warn } from "../../../lib/notify";
import { useAdminForm } from "../hooks/useAdminForm";
import { useAdminPlans } from "../hooks/useAdminPlans";
import { useUpdateAdminPlan } from "../hooks/useUpdateAdminPlan";
import { AdminField } from "./AdminField";

/** The plans: price, description, URL, Stripe price, grants (issue 9) and picture (issue 16). */
export function PlansSection() {
  const plans = useAdminPlans();
  const [editing, setEditing] = useState<string | null>(null);
  if (plans.data === undefined) return <p className="muted">Loading plans…</p>;
  return (
    <>
      <table className="data-table" aria-label="Plans">
        <thead>
          <tr>
            <th>Plan</th>
            <th>Price</th>
            <th>Messages</th>
            <th>Grants</th>
            <th>Sold through</th>
            <th>Users</th>
            <th>Actions</th>
          </tr>
        </thead>
        <tbody>
          {plans.data.map((plan) => (
            <tr key={plan.id}>
              <td data-label="Plan">{plan.name}</td>
              <td data-label="Price">${plan.price}/mo</td>
              <td data-label="Messages">
                {plan.messageLimit} a {plan.quotaPeriod}
              </td>
              <td data-label="Grants">
                cl {plan.cl}, vl {plan.vl}, pl {plan.pl ? "1" : "0"}, il {plan.il ? "1" : "0"}
                {plan.uncensored ? ", uncensored" : ""}
              </td>
              <td data-label="Sold through">
                {plan.stripePriceId ? "Stripe Checkout" : "granted by an admin"}
              </td>
              <td data-label="Users">{plan.users}</td>
              <td data-label="Actions">
                <button
                  type="button"
                  className="button button--ghost"
                  aria-label={`Edit ${plan.name}`}
                  onClick={() => setEditing(plan.id)}
                >
                  Edit
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {plans.data
        .filter((plan) => plan.id === editing)
        .map((plan) => (
          <PlanForm key={plan.id} plan={plan} onDone={() => setEditing(null)} />
        ))}
    </>
  );
}

/**
 * One plan's edit form. The server's rules (common/validation.ts, issue 16: name, price in dollars,
 * lengths, Stripe price id) are checked before sending; a broken one shows its sentence as the
 * warning toast a refusal would show, nothing sent.
 */
function PlanForm({ plan, onDone }: { plan: AdminPlan; onDone: () => void }) {
  const save = useUpdateAdminPlan();
  const form = useAdminForm<PlanEdit>({
    name: plan.name,
    price: plan.price,
    description: plan.description,
    url: plan.url,
    stripePriceId: plan.stripePriceId,
    cl: plan.cl,
    vl: plan.vl,
    pl: plan.pl,
    il: plan.il,
    messageLimit: plan.messageLimit,
    quotaPeriod: plan.quotaPeriod,
    uncensored: plan.uncensored,
  });
  const { values, set } = form;
  const [image, setImage] = useState<File | undefined>(undefined);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const problem = firstProblem([
      [RULES.planName, values.name],
      [RULES.planPrice, values.price],
      [RULES.planDescription, values.description],
      [RULES.planUrl, values.url],
      [RULES.stripePriceId, values.stripePriceId],
    ]);
    if (problem) {
      warn(problem);
      return;
    }
    save.mutate(
      { id: plan.id, plan: values, image },
      {
        onSuccess: (answer) => {
          succeed(answer.message || "Plan saved.");
          onDone();
        },
      },
    );
  };
  return (
    <form className="form admin-form" aria-label={`Edit plan ${plan.name}`} onSubmit={onSubmit}>
      <h2>Edit {plan.name}</h2>
      <AdminField label="Name" kind="text" {...form.text("name")} />
      <AdminField label="Monthly price ($)" kind="text" {...form.text("price")} />
      <AdminField label="Description (HTML)" kind="textarea" {...form.text("description")} />
      <AdminField label="Plan URL" kind="text" {...form.text("url")} />
      <AdminField
        label="Stripe price id (empty: granted by an admin)"
        kind="text"
        {...form.text("stripePriceId")}
      />
      <AdminField label="Character limit (cl)" kind="number" {...form.count("cl")} />
      <AdminField label="Voice limit (vl)" kind="number" {...form.count("vl")} />
      <AdminField label="Photo upload (pl)" kind="checkbox" {...form.flag("pl")} />
      <AdminField label="Appearance and images (il)" kind="checkbox" {...form.flag("il")} />
      <AdminField label="Message limit" kind="number" {...form.count("messageLimit")} />
      <AdminField
        label="Quota period"
        kind="select"
        value={values.quotaPeriod}
        onChange={(v) => set("quotaPeriod", v === "day" ? "day" : "month")}
        options={[
          { value: "day", label: "per day" },
          { value: "month", label: "per month" },
        ]}
      />
      <AdminField label="Uncensored replies and images" kind="checkbox" {...form.flag("uncensored")} />
      <div className="field">
        <label htmlFor={`admin-plan-image-${plan.id}`}>Plan picture (JPEG or PNG)</label>
        {plan.image && (
          <img
            className="admin-plan-image"
            src={contentUrl("pricing", plan.image)}
            alt={`Current look of ${plan.name}`}
            width={160}
            height={100}
          />
        )}
        <input
          id={`admin-plan-image-${plan.id}`}
          type="file"
          accept="image/jpeg,image/png"
          onChange={(event) => setImage(event.target.files?.[0])}
        />
      </div>
      <FormActions onCancel={onDone} submitLabel="Save plan" pending={save.isPending} />
    </form>
  );
}
