// The menus' language switch: the six languages by their own names, kept locally and, signed in, with the account.
import { useId } from "react";
import { useTranslation } from "react-i18next";
import "./language-switch.css";
import { useSessionUser } from "../hooks/useSessionUser";
import { currentLanguage, SUPPORTED_LANGUAGES, setLanguage } from "../i18n";
import { readUser, saveUser } from "../lib/session";

/**
 * The language switch of the menus: the six languages by their own names. The
 * choice applies at once and is kept in local storage; signed in, also with the account
 * (POST /users/ui-language, its code fetched with the first save), so another device or a new
 * session opens in it. A failed save is only logged: the switch still applies here.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation("common");
  const signedIn = useSessionUser() !== null;
  const id = useId();
  const onChange = (lng: string) => {
    setLanguage(lng);
    if (!signedIn) return;
    // The account calls are fetched with this first save, not carried by the entry chunk.
    import("../api/users")
      .then(({ saveUiLanguage }) => saveUiLanguage(lng))
      .then((user) => {
        if (readUser()?.id === user.id) saveUser(user);
      })
      .catch((error: unknown) => console.error("ui-language", error));
  };
  return (
    <div className="language-switch">
      <label htmlFor={id}>{t("language.label")}</label>
      <select
        id={id}
        value={i18n.language ? currentLanguage() : "en"}
        onChange={(e) => onChange(e.target.value)}
      >
        {SUPPORTED_LANGUAGES.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}
