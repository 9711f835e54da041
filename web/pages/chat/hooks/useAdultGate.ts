// The chat's 18+ gate: asks once per visit until the account confirms; a refusal goes back to the characters list.
import { useEffect } from "react";
import { useNavigate } from "react-router";
import { confirmAdult } from "../../../api/users";
import { AppSwal } from "../../../lib/dialogs";
import { saveUser } from "../../../lib/session";
import { chatTexts } from "../texts";

/**
 * The 18+ gate of the chat (a confirmation is stored for every account). While the
 * session user has not confirmed (`adult` is not '1'), asks once per visit; a confirmation is
 * stored by the server and in the session user, a refusal goes back to the characters list.
 * The server refuses chat messages until then, whatever the browser says.
 */
export function useAdultGate(confirmed: boolean): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (confirmed) return;
    let active = true;
    void (async () => {
      const answer = await AppSwal.fire({
        titleText: chatTexts.ageTitle,
        text: chatTexts.ageText,
        showCancelButton: true,
        confirmButtonText: chatTexts.ageConfirm,
        cancelButtonText: chatTexts.ageLeave,
        allowOutsideClick: false,
      });
      if (!active) return;
      if (!answer.isConfirmed) {
        navigate("/characters/list");
        return;
      }
      try {
        saveUser(await confirmAdult());
      } catch (error) {
        console.error("users/confirm-age", error);
      }
    })();
    return () => {
      active = false;
    };
  }, [confirmed, navigate]);
}
