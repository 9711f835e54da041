// The profile's "Delete my account": what is removed, the password, a confirmation, then the account erased.
import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import { eraseAccount } from "../../../api/account-erase";
import { queryClient } from "../../../api/queryClient";
import { AppSwal } from "../../../lib/dialogs";
import { navigateTo } from "../../../lib/navigation";
import { succeed, warn } from "../../../lib/notify";
import { clearSession } from "../../../lib/session";

/**
 * The profile's "Delete my account" ("Erase my account"): the warning of what is
 * removed (catalogue "profile", `erase.warning`),
 * removed, the password field (a guest types its user name; an account signed up with YouTube
 * types its e-mail, from a sign-in of the last 10 minutes), then a confirmation dialog
 * (sweetalert2, as every delete confirmation, product.md §8). Once the server has erased it: the local
 * session is dropped, the public home page opens and a toast says it is done. A refusal (wrong
 * password, a subscription to cancel first) shows the server's sentence and erases nothing.
 */
export function DeleteAccountPanel({ guest, userName }: { guest: boolean; userName: string }) {
  const { t } = useTranslation("profile");
  const [secret, setSecret] = useState("");
  const [error, setError] = useState("");
  const fieldId = useId();
  const errorId = `${fieldId}-error`;
  const erase = useMutation({ mutationFn: eraseAccount });
  const label = guest ? t("erase.guestLabel") : t("erase.passwordLabel");
  const warning = t("erase.warning");

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (erase.isPending) return;
    if (secret.trim() === "") {
      setError(t("erase.required", { label }));
      return;
    }
    setError("");
    const answer = await AppSwal.fire({
      icon: "warning",
      titleText: t("erase.confirmTitle"),
      text: warning,
      showCancelButton: true,
      confirmButtonText: t("erase.confirm"),
      cancelButtonText: t("erase.cancel"),
      focusCancel: true,
    });
    if (!answer.isConfirmed) return;
    erase.mutate(secret, {
      onSuccess: () => {
        clearSession();
        queryClient.clear();
        navigateTo("/");
        succeed(t("erase.done"));
      },
      onError: (failure) => {
        setError(failure.message);
        warn(failure.message);
      },
    });
  };

  return (
    <div className="card entity-card">
      <section className="delete-account" aria-labelledby={`${fieldId}-title`}>
        <h2 id={`${fieldId}-title`}>{t("erase.title")}</h2>
        <p className="delete-account__warning">{warning}</p>
        {!guest && <p className="muted">{t("erase.youtubeNote")}</p>}
        <form onSubmit={onSubmit} noValidate>
          <div className={error ? "field field--invalid" : "field"}>
            <label htmlFor={fieldId}>{label}</label>
            <input
              id={fieldId}
              type={guest ? "text" : "password"}
              value={secret}
              placeholder={guest ? userName : undefined}
              autoComplete={guest ? "off" : "current-password"}
              onChange={(event) => setSecret(event.target.value)}
              aria-invalid={error !== ""}
              aria-describedby={error ? errorId : undefined}
            />
            {error && (
              <span id={errorId} className="field__error" role="alert">
                {error}
              </span>
            )}
          </div>
          <div className="entity-form__actions">
            <button
              type="submit"
              className="button delete-account__button"
              disabled={erase.isPending}
              aria-busy={erase.isPending}
            >
              {t("erase.submit")}
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}
