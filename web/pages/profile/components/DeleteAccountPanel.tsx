import { useMutation } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import { eraseAccount } from "../../../api/account-erase";
import { queryClient } from "../../../api/queryClient";
import { AppSwal } from "../../../lib/dialogs";
import { navigateTo } from "../../../lib/navigation";
import { succeed, warn } from "../../../lib/notify";
import { clearSession } from "../../../lib/session";

/** What the erasure removes, said before the person confirms (issue 18). */
export const ERASE_WARNING =
  "This deletes your account for good: your profile and picture, every character you made and its photo, all your chats, pictures, photos and voice messages, everything your companions remember about you, your signed-in devices and every session. It cannot be undone.";

/**
 * The profile's "Delete my account" (issue 18 "Erase my account"): the warning of what is
 * removed, the password field (a guest types its user name; an account signed up with YouTube
 * types its e-mail, from a sign-in of the last 10 minutes), then a confirmation dialog
 * (sweetalert2, as every delete confirmation, spec 8). Once the server has erased it: the local
 * session is dropped, the public home page opens and a toast says it is done. A refusal (wrong
 * password, a subscription to cancel first) shows the server's sentence and erases nothing.
 */
export function DeleteAccountPanel({ guest, userName }: { guest: boolean; userName: string }) {
  const [secret, setSecret] = useState("");
  const [error, setError] = useState("");
  const fieldId = useId();
  const errorId = `${fieldId}-error`;
  const erase = useMutation({ mutationFn: eraseAccount });
  const label = guest ? "Type your user name to confirm" : "Your password";

  const onSubmit = async (event: FormEvent): Promise<void> => {
    event.preventDefault();
    if (erase.isPending) return;
    if (secret.trim() === "") {
      setError(`${label} is required.`);
      return;
    }
    setError("");
    const answer = await AppSwal.fire({
      icon: "warning",
      titleText: "Delete your account?",
      text: ERASE_WARNING,
      showCancelButton: true,
      confirmButtonText: "Yes, delete my account",
      cancelButtonText: "Cancel",
      focusCancel: true,
    });
    if (!answer.isConfirmed) return;
    erase.mutate(secret, {
      onSuccess: () => {
        clearSession();
        queryClient.clear();
        navigateTo("/");
        succeed("Your account has been deleted.");
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
        <h2 id={`${fieldId}-title`}>Delete my account</h2>
        <p className="delete-account__warning">{ERASE_WARNING}</p>
        {!guest && (
          <p className="muted">
            Signed up with YouTube and have no password? Type your e-mail instead, within 10 minutes of
            signing in.
          </p>
        )}
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
              Delete my account
            </button>
          </div>
        </form>
      </section>
    </div>
  );
}
