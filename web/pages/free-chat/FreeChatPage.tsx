import type { FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { FREE_DAILY_MESSAGES } from "../../../common/constants";
import { RULES } from "../../../common/validation";
import { TextField } from "../../components/TextField";
import { useRequiredFields } from "../../hooks/useRequiredFields";
import { warnPublic } from "../../lib/notify";
import { localCheck } from "../../lib/validationText";
import { useFreeSubscribe } from "./hooks/useFreeSubscribe";
import { useFreeSubscribeOffered } from "./hooks/useFreeSubscribeOffered";

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
    if (!fields.validate()) return;
    const problem = localCheck(RULES.email, fields.values.email);
    if (problem) {
      warnPublic(problem);
      return;
    }
    subscribe.mutate(fields.values.email.trim());
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
            <TextField
              label={t("freeChat.email")}
              type="email"
              autoComplete="email"
              {...fields.bind("email")}
            />
            <button
              type="submit"
              className="button button--primary button--block"
              disabled={subscribe.isPending}
              aria-busy={subscribe.isPending}
            >
              {subscribe.isPending && <span className="spinner spinner--small" aria-hidden="true" />}
              {t("freeChat.submit")}
            </button>
          </form>
        </>
      )}
    </section>
  );
}
