// The free chat subscribe page (/free-chat, product.md §2 "Free chat subscribe"): how the free tier works and its e-mail form.
import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { FREE_DAILY_MESSAGES } from "../../../common/constants";
import { RULES } from "../../../common/validation";
import { EmailField } from "../../components/AccountFields";
import { SubmitButton } from "../../components/AuthForm";
import { formReady } from "../../components/formChecks";
import { useFreeSubscribeOffered } from "../../hooks/useFreeSubscribeOffered";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { warnPublic } from "../../lib/notify";
import { useFreeSubscribe } from "./hooks/useFreeSubscribe";

/**
 * `/free-chat` and `/Free-chat` (product.md §2 "Free chat subscribe"): how the free tier works
 * (15 messages a day) and its steps, one e-mail field (required, product.md §5) and the 'Free
 * Subscribe Request' button (POST /users/free/subscribe/process). The address is checked by the
 * server's rule first (common/validation.ts): its sentence as a warning toast, nothing sent.
 * The steps and the form show only where the server offers the free subscription (a video is
 * configured: GET /users/free/subscribe); otherwise a note says it is not offered.
 */
export function FreeChatPage() {
  const { t } = useTranslation("public");
  const fields = useRequiredFields({ email: "" });
  const subscribe = useFreeSubscribe(fields.reset);
  const availability = useFreeSubscribeOffered();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const { email } = fields.values;
    if (formReady(fields, [[RULES.email, email]], { warn: warnPublic })) subscribe.mutate(email.trim());
  };

  return (
    <section className="public-page public-page--narrow">
      <h1>{t("freeChat.title")}</h1>
      <p className="public-page__lead">{t("freeChat.lead", { n: FREE_DAILY_MESSAGES })}</p>
      {availability.settled && !availability.offered && (
        <p className="public-page__lead" role="status">
          {t("freeChat.notOffered")}
        </p>
      )}
      {availability.offered && (
        <>
          <h2>{t("freeChat.how")}</h2>
          <ol className="steps">
            <li>{t("freeChat.steps.email")}</li>
            <li>{t("freeChat.steps.code")}</li>
            <li>{t("freeChat.steps.comment")}</li>
            <li>{t("freeChat.steps.login")}</li>
          </ol>
          <form
            className="form card public-form"
            onSubmit={submit}
            noValidate
            aria-label={t("freeChat.form")}
          >
            <EmailField label={t("freeChat.email")} {...fields.bind("email")} />
            <SubmitButton
              label={t("freeChat.submit")}
              busy={subscribe.isPending}
              spinner={subscribe.isPending}
            />
          </form>
        </>
      )}
    </section>
  );
}
