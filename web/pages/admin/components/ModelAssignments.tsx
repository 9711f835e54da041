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
  const groups: Array<{ scope: ModelAssignment["scope"]; legend: string; targets: AssignmentTarget[] }> = [
    {
      scope: "plan",
      legend: t("assign.plans"),
      targets: assignments.plans.map((plan) => ({ ...plan, id: plan.planId, name: plan.planName })),
    },
    {
      scope: "character",
      legend: t("assign.characters"),
      targets: assignments.characters.map((character) => ({ ...character, id: character.characterId })),
    },
  ];
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
      {groups.map((group) => (
        <AssignmentGroup
          key={group.scope}
          legend={group.legend}
          targets={group.targets}
          options={inherit}
          value={(target) => shown(group.scope, target.connectionId, target.id)}
          onChange={(target, value) => change(group.scope, value, target.id)}
        />
      ))}
    </section>
  );
}

/** A plan or preset character whose connection can be chosen: its id, its name and the stored choice (null: inherit). */
interface AssignmentTarget {
  id: string;
  name: string;
  connectionId: string | null;
}

/** One fieldset of selects, one a target (nothing when there are no targets). */
function AssignmentGroup({
  legend,
  targets,
  options,
  value,
  onChange,
}: {
  legend: string;
  targets: AssignmentTarget[];
  options: Array<{ value: string; label: string }>;
  value: (target: AssignmentTarget) => string;
  onChange: (target: AssignmentTarget, value: string) => void;
}) {
  if (targets.length === 0) return null;
  return (
    <fieldset className="admin-models__group">
      <legend>{legend}</legend>
      {targets.map((target) => (
        <AdminField
          key={target.id}
          label={target.name}
          kind="select"
          value={value(target)}
          onChange={(picked) => onChange(target, picked)}
          options={options}
        />
      ))}
    </fieldset>
  );
}
