// The admin console's Plans section: each plan's price, description, URL, Stripe price, grants and picture, and its edit form.
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import type { AdminPlan, PlanEdit } from "../../../api/admin";
import { FormActions } from "../../../components/EntityForm";
import { FileInput } from "../../../components/FileInput";
import { currentLanguage, formatPrice } from "../../../i18n";
import { contentUrl } from "../../../lib/content";
import { useAdminForm } from "../hooks/useAdminForm";
import { useAdminPlans } from "../hooks/useAdminPlans";
import { useUpdateAdminPlan } from "../hooks/useUpdateAdminPlan";
import { EditButton } from "./ActionButton";
import { AdminField } from "./AdminField";
import { AdminTable } from "./AdminTable";
import { GrantFields, savedThen, sendChecked } from "./adminFormParts";

/** A plan's monthly price: as stored in English ("$24.50"), in the language's format elsewhere. */
function priceText(price: string): string {
  const amount = Number(price);
  if (currentLanguage() === "en" || !Number.isFinite(amount)) return `$${price}`;
  return formatPrice(amount, "USD");
}

/** The plans: price, description, URL, Stripe price, grants and picture. */
export function PlansSection() {
  const { t } = useTranslation("admin");
  const plans = useAdminPlans();
  const [editing, setEditing] = useState<string | null>(null);
  const editedPlan = plans.data?.find((plan) => plan.id === editing);
  return (
    <>
      <AdminTable
        label={t("plans.table")}
        rows={plans.data}
        loading={t("plans.loading")}
        columns={[
          { label: t("common.plan"), cell: (plan) => plan.name },
          { label: t("plans.price"), cell: (plan) => t("plans.perMonth", { price: priceText(plan.price) }) },
          {
            label: t("common.messages"),
            cell: (plan) =>
              t(plan.quotaPeriod === "day" ? "plans.perDayCount" : "plans.perMonthCount", {
                n: plan.messageLimit,
              }),
          },
          {
            label: t("plans.grants"),
            cell: (plan) =>
              `cl ${plan.cl}, vl ${plan.vl}, pl ${plan.pl ? "1" : "0"}, il ${plan.il ? "1" : "0"}` +
              (plan.uncensored ? `, ${t("plans.uncensoredGrant")}` : ""),
          },
          {
            label: t("plans.soldThrough"),
            cell: (plan) => (plan.stripePriceId ? t("plans.stripe") : t("plans.granted")),
          },
          { label: t("plans.users"), cell: (plan) => plan.users },
          {
            label: t("common.actions"),
            cell: (plan) => <EditButton name={plan.name} onClick={() => setEditing(plan.id)} />,
          },
        ]}
      />
      {editedPlan && <PlanForm key={editedPlan.id} plan={editedPlan} onDone={() => setEditing(null)} />}
    </>
  );
}

/**
 * One plan's edit form. The server's rules (common/validation.ts: name, price in dollars,
 * lengths, Stripe price id) are checked before sending; a broken one shows its sentence as the
 * warning toast a refusal would show, nothing sent.
 */
function PlanForm({ plan, onDone }: { plan: AdminPlan; onDone: () => void }) {
  const { t } = useTranslation("admin");
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
    sendChecked(
      [
        [RULES.planName, values.name],
        [RULES.planPrice, values.price],
        [RULES.planDescription, values.description],
        [RULES.planUrl, values.url],
        [RULES.stripePriceId, values.stripePriceId],
      ],
      () =>
        save.mutate({ id: plan.id, plan: values, image }, { onSuccess: savedThen(onDone, t("plans.saved")) }),
    );
  };
  return (
    <form className="form admin-form" aria-label={t("plans.form", { name: plan.name })} onSubmit={onSubmit}>
      <h2>{t("common.editOf", { name: plan.name })}</h2>
      <AdminField label={t("common.name")} kind="text" {...form.text("name")} />
      <AdminField label={t("plans.monthlyPrice")} kind="text" {...form.text("price")} />
      <AdminField label={t("plans.description")} kind="textarea" {...form.text("description")} />
      <AdminField label={t("plans.url")} kind="text" {...form.text("url")} />
      <AdminField label={t("plans.stripePrice")} kind="text" {...form.text("stripePriceId")} />
      <GrantFields form={form} />
      <AdminField label={t("plans.messageLimit")} kind="number" {...form.count("messageLimit")} />
      <AdminField
        label={t("plans.quotaPeriod")}
        kind="select"
        value={values.quotaPeriod}
        onChange={(v) => set("quotaPeriod", v === "day" ? "day" : "month")}
        options={[
          { value: "day", label: t("plans.perDay") },
          { value: "month", label: t("plans.perMonthOption") },
        ]}
      />
      <AdminField label={t("plans.uncensored")} kind="checkbox" {...form.flag("uncensored")} />
      <div className="field">
        <label htmlFor={`admin-plan-image-${plan.id}`}>{t("plans.picture")}</label>
        {plan.image && (
          <img
            className="admin-plan-image"
            src={contentUrl("pricing", plan.image)}
            alt={t("plans.currentLook", { name: plan.name })}
            width={160}
            height={100}
          />
        )}
        <FileInput
          id={`admin-plan-image-${plan.id}`}
          accept="image/jpeg,image/png"
          fileName={image?.name}
          onChange={(event) => setImage(event.target.files?.[0])}
        />
      </div>
      <FormActions onCancel={onDone} submitLabel={t("plans.save")} pending={save.isPending} />
    </form>
  );
}
