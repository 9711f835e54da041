// The admin console's Presets section: the preset characters, created and edited with their photo.
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import type { AdminPreset, PresetEdit } from "../../../api/admin";
import { FormActions } from "../../../components/EntityForm";
import { FileInput } from "../../../components/FileInput";
import { useLanguages } from "../../../hooks/useLanguages";
import { useVoices } from "../../../hooks/useVoices";
import { contentUrl } from "../../../lib/content";
import { useAdminForm } from "../hooks/useAdminForm";
import { useAdminPresets } from "../hooks/useAdminPresets";
import { useSaveAdminPreset } from "../hooks/useSaveAdminPreset";
import { EditButton } from "./ActionButton";
import { AdminField } from "./AdminField";
import { AdminTable } from "./AdminTable";
import { savedThen, sendChecked } from "./adminFormParts";

/** Preset characters: create, edit, photo. */
export function PresetsSection() {
  const { t } = useTranslation("admin");
  const presets = useAdminPresets();
  const [editing, setEditing] = useState<AdminPreset | "new" | null>(null);
  return (
    <>
      <div className="row-actions">
        <button type="button" className="button button--primary" onClick={() => setEditing("new")}>
          {t("presets.new")}
        </button>
      </div>
      <AdminTable
        label={t("presets.table")}
        rows={presets.data}
        loading={t("presets.loading")}
        columns={[
          {
            label: t("common.photo"),
            cell: (preset) => (
              <img src={contentUrl("predefined-characters", preset.photo)} alt="" width={48} height={48} />
            ),
          },
          { label: t("common.name"), cell: (preset) => preset.name },
          { label: t("presets.voice"), cell: (preset) => preset.voice },
          { label: t("presets.backstory"), cell: (preset) => preset.description.slice(0, 80) },
          {
            label: t("common.actions"),
            cell: (preset) => <EditButton name={preset.name} onClick={() => setEditing(preset)} />,
          },
        ]}
      />
      {editing !== null && (
        <PresetForm
          key={editing === "new" ? "new" : editing.id}
          preset={editing === "new" ? undefined : editing}
          onDone={() => setEditing(null)}
        />
      )}
    </>
  );
}

function PresetForm({ preset, onDone }: { preset?: AdminPreset; onDone: () => void }) {
  const { t } = useTranslation("admin");
  const save = useSaveAdminPreset();
  const languages = useLanguages();
  const voices = useVoices();
  const form = useAdminForm<PresetEdit>({
    id: preset?.id,
    name: preset?.name ?? "",
    sex: preset?.sex ?? "0",
    voice: preset?.voice ?? "",
    languageId: preset?.languageId ?? "",
    description: preset?.description ?? "",
    greeting: preset?.greeting ?? "",
    appearance: preset?.appearance ?? "",
  });
  const { values, set } = form;
  const languageOptions = (languages.data ?? []).map((l) => ({
    value: l.languageUUID,
    label: l.languageName,
  }));
  const voiceOptions = (voices.data ?? []).map((v) => ({ value: v.voiceName, label: v.voiceName }));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const input: PresetEdit = {
      ...values,
      languageId: values.languageId || languageOptions[0]?.value || "",
      voice: values.voice || voiceOptions[0]?.value || "",
    };
    sendChecked(
      [
        [RULES.characterName, input.name],
        [RULES.characterVoice, input.voice],
        [RULES.characterLanguage, input.languageId],
        [RULES.backstory, input.description],
        [RULES.greeting, input.greeting],
        [RULES.appearance, input.appearance],
      ],
      () => save.mutate(input, { onSuccess: savedThen(onDone, t("common.saved")) }),
    );
  };
  return (
    <form
      className="form admin-form"
      aria-label={preset ? t("presets.form", { name: preset.name }) : t("presets.new")}
      onSubmit={onSubmit}
    >
      <h2>{preset ? t("common.editOf", { name: preset.name }) : t("presets.new")}</h2>
      <AdminField label={t("common.name")} kind="text" {...form.text("name")} />
      <AdminField
        label={t("presets.sex")}
        kind="select"
        value={values.sex}
        onChange={(v) => set("sex", v === "1" ? "1" : "0")}
        options={[
          { value: "0", label: t("presets.female") },
          { value: "1", label: t("presets.male") },
        ]}
      />
      <AdminField
        label={t("presets.voice")}
        kind="select"
        value={values.voice || voiceOptions[0]?.value || ""}
        onChange={(v) => set("voice", v)}
        options={voiceOptions}
      />
      <AdminField
        label={t("presets.language")}
        kind="select"
        value={values.languageId || languageOptions[0]?.value || ""}
        onChange={(v) => set("languageId", v)}
        options={languageOptions}
      />
      <AdminField label={t("presets.backstory")} kind="textarea" {...form.text("description")} />
      <AdminField label={t("presets.greeting")} kind="textarea" {...form.text("greeting")} />
      <AdminField label={t("presets.appearance")} kind="text" {...form.text("appearance")} />
      <div className="field">
        <label htmlFor="admin-preset-photo">{t("presets.photoFile")}</label>
        <FileInput
          id="admin-preset-photo"
          accept="image/jpeg,image/png"
          fileName={values.photo?.name}
          onChange={(event) => set("photo", event.target.files?.[0])}
        />
      </div>
      <FormActions onCancel={onDone} submitLabel={t("presets.save")} pending={save.isPending} />
    </form>
  );
}
