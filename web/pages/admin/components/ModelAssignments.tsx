// The Models section's assignments: the default connection, and one per plan and per preset character.
import { useTranslation } from "react-i18next";
import type { ModelsOverview } from "../../../../common/models-api";
import type { ModelAssignment } from "../../../api/models";
import { succeed } from "../../../lib/notify";
import { useAssignModel } from "../hooks/useAdminModels";
import { AdminField } from "./AdminField";

/**
 * Which connection answers where: the default, then per plan, then per preset character (the
 * most specific wins). Each select saves on change; "Default" (null) follows the level above.
 * While a change is being saved its select shows the new choice.
 */
export function ModelAssignmentsPanel({ overview }: { overview: ModelsOverview }) {
  const { t } = useTranslation("models");
  const assign = useAssignModel();
  const { assignments, connections } = overview;
  const choices = connections.map((connection) => ({ value: connection.id, label: connection.name }));
  const pending = assign.isPending ? assign.variables : undefined;
  /** The select's value: the choice being saved for this target, else the stored one ("" for null). */
  const shown = (scope: ModelAssignment["scope"], stored: string | null, targetId?: string) => {
    const saving = pending?.scope === scope && pending.targetId === targetId ? pending : undefined;
    return (saving ? saving.connectionId : stored) ?? "";
  };
  const change = (scope: ModelAssignment["scope"], value: string, targetId?: string) =>
    assign.mutate(
      { scope, targetId, connectionId: value === "" ? null : value },
      { onSuccess: () => succeed(t("assign.saved")) },
    );
  const inherit = [{ value: "", label: t("assign.inherit") }, ...choices];
  return (
    <section className="admin-form admin-models__assign" aria-labelledby="admin-models-assign">
      <h3 id="admin-models-assign">{t("assign.title")}</h3>
      <p className="muted">{t("assign.intro")}</p>
      <AdminField
        label={t("assign.default")}
        kind="select"
        value={shown("default", assignments.defaultId)}
        onChange={(value) => change("default", value)}
        options={[{ value: "", label: t("assign.none") }, ...choices]}
      />
      {assignments.plans.length > 0 && (
        <fieldset className="admin-models__group">
          <legend>{t("assign.plans")}</legend>
          {assignments.plans.map((plan) => (
            <AdminField
              key={plan.planId}
              label={plan.planName}
              kind="select"
              value={shown("plan", plan.connectionId, plan.planId)}
              onChange={(value) => change("plan", value, plan.planId)}
              options={inherit}
            />
          ))}
        </fieldset>
      )}
      {assignments.characters.length > 0 && (
        <fieldset className="admin-models__group">
          <legend>{t("assign.characters")}</legend>
          {assignments.characters.map((character) => (
            <AdminField
              key={character.characterId}
              label={character.name}
              kind="select"
              value={shown("character", character.connectionId, character.characterId)}
              onChange={(value) => change("character", value, character.characterId)}
              options={inherit}
            />
          ))}
        </fieldset>
      )}
    </section>
  );
}
