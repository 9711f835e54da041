// The login page's Recover Password mode: its form and its request, loaded only when the mode is opened.

import { useForgotPassword } from "../hooks/useForgotPassword";
import { RecoverForm } from "./RecoverForm";

/**
 * Recover Password (product.md §2 "Login", §4): the email form and POST /auth/forgot-password; back
 * to sign-in after a success or on `onBackToLogin`. The login page loads it on demand (`lazy`),
 * so sign-in alone does not download it.
 */
export function RecoverPanel({ onBackToLogin }: { onBackToLogin: () => void }) {
  const forgot = useForgotPassword(onBackToLogin);
  return (
    <RecoverForm
      busy={forgot.isPending}
      onSubmit={(email) => forgot.mutate(email)}
      onBackToLogin={onBackToLogin}
    />
  );
}
