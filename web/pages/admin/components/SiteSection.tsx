// The admin console's Site section: the guest demo's switch (on or off at once, no restart) and who may sign up.
import { useId } from "react";
import { useTranslation } from "react-i18next";
import { succeed } from "../../../lib/notify";
import { useAdminSite, useSetDemo } from "../hooks/useAdminSite";

/**
 * Site: a switch (a checkbox with role "switch") "Guest demo" that opens or closes `/login/<id>`
 * for everyone at once (the server's sentence as a toast), the demo's link while it is open, and
 * the sign-up mode in words (REGISTRATION is set in the server's environment, so it is shown,
 * not changed, here). Invitations work whatever the mode.
 */
export function SiteSection() {
  const { t } = useTranslation("admin");
  const id = useId();
  const site = useAdminSite();
  const setDemo = useSetDemo();
  const state = site.data;
  if (state === undefined) return <p className="muted">{t("site.loading")}</p>;
  const demo = setDemo.isPending && setDemo.variables !== undefined ? setDemo.variables : state.demo;
  return (
    <div>
      <div className="field field--inline">
        <input
          id={id}
          type="checkbox"
          role="switch"
          checked={demo}
          aria-checked={demo}
          aria-describedby={`${id}-help`}
          aria-busy={setDemo.isPending}
          disabled={setDemo.isPending}
          onChange={(event) =>
            setDemo.mutate(event.target.checked, { onSuccess: (answer) => succeed(answer.message) })
          }
        />
        <label htmlFor={id}>{t("site.demo")}</label>
      </div>
      <p className="muted" id={`${id}-help`}>
        {state.demo ? t("site.demoOn") : t("site.demoOff")}
      </p>
      {state.demo && (
        <p>
          {t("site.demoLink")} <a href={state.demoLink}>{state.demoLink}</a>
        </p>
      )}
      <p>{t(`site.registration.${state.registration}`)}</p>
    </div>
  );
}
