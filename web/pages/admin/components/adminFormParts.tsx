// What the admin edit forms share: the four grant fields, and checking the server's rules before a save.
import { useTranslation } from "react-i18next";
import type { TextRule } from "../../../../common/validation";
import { succeed, warn } from "../../../lib/notify";
import { firstLocalProblem } from "../../../lib/validationText";
import type { AdminForm } from "../hooks/useAdminForm";
import { AdminField } from "./AdminField";

/** The grants a plan gives and a user's own limits override: characters, voice, photo upload, appearance images. */
interface Grants {
  cl: number;
  vl: number;
  pl: boolean;
  il: boolean;
}

/** The four grant fields of a plan's form and of a user's limits form, bound to `form`. */
export function GrantFields({ form }: { form: Pick<AdminForm<Grants>, "count" | "flag"> }) {
  const { t } = useTranslation("admin");
  return (
    <>
      <AdminField label={t("common.characterLimit")} kind="number" {...form.count("cl")} />
      <AdminField label={t("common.voiceLimit")} kind="number" {...form.count("vl")} />
      <AdminField label={t("common.photoUpload")} kind="checkbox" {...form.flag("pl")} />
      <AdminField label={t("common.appearanceImages")} kind="checkbox" {...form.flag("il")} />
    </>
  );
}

/**
 * Runs `send` once the values meet the server's rules (common/validation.ts); a broken rule shows
 * its sentence, in the current language, as the warning toast the server's refusal would show,
 * and nothing is sent.
 */
export function sendChecked(checks: ReadonlyArray<readonly [TextRule, string]>, send: () => void): void {
  const problem = firstLocalProblem(checks);
  if (problem) warn(problem);
  else send();
}

/** A save's `onSuccess`: the answer's message (or `fallback` when it has none) as a toast, then `done`. */
export function savedThen(done: () => void, fallback = ""): (answer: { message: string }) => void {
  return (answer) => {
    succeed(answer.message || fallback);
    done();
  };
}
