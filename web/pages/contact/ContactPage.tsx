// The contact page (/contact, product.md §2 "Contact"): name, e-mail, subject and message, all required, checked before sending.
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../common/validation";
import { EmailField } from "../../components/AccountFields";
import { SubmitButton } from "../../components/AuthForm";
import { formReady } from "../../components/formChecks";
import { TextAreaField } from "../../components/TextAreaField";
import { TextField } from "../../components/TextField";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { warnPublic } from "../../lib/notify";
import { useContactAdmin } from "./hooks/useContactAdmin";

/**
 * `/contact` (product.md §2 "Contact"): name, email, subject and message, all required (product.md §5: red
 * when blank after trimming, on submit and live while typing; nothing is sent while one is
 * blank). The server's rules (common/validation.ts: e-mail format, lengths) are checked
 * next; a broken one shows its sentence as the warning toast a refusal would show, nothing sent.
 * Submit reads 'Sending...' while busy; after a successful send the form is cleared.
 */
export function ContactPage() {
  const { t } = useTranslation("public");
  const fields = useRequiredFields({ name: "", email: "", subject: "", message: "" });
  const contact = useContactAdmin(fields.reset);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { name, email, subject, message } = fields.values;
    const checks = [
      [RULES.contactName, name],
      [RULES.email, email],
      [RULES.contactSubject, subject],
      [RULES.contactMessage, message],
    ] as const;
    if (!formReady(fields, checks, { warn: warnPublic })) return;
    contact.mutate({
      name: name.trim(),
      email: email.trim(),
      subject: subject.trim(),
      message: message.trim(),
    });
  };

  return (
    <section className="public-page public-page--narrow">
      <h1>{t("contact.title")}</h1>
      <p className="public-page__lead">{t("contact.lead")}</p>
      <form className="form card public-form" onSubmit={submit} noValidate aria-label={t("contact.form")}>
        <TextField label={t("contact.name")} autoComplete="name" {...fields.bind("name")} />
        <EmailField label={t("contact.email")} {...fields.bind("email")} />
        <TextField label={t("contact.subject")} {...fields.bind("subject")} />
        <TextAreaField label={t("contact.message")} {...fields.bind("message")} />
        <SubmitButton
          label={contact.isPending ? t("contact.sending") : t("contact.submit")}
          busy={contact.isPending}
        />
      </form>
    </section>
  );
}
