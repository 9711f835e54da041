import { type FormEvent, useState } from "react";
import { firstProblem, RULES } from "../../../../common/validation";
import type { AdminPreset, PresetEdit } from "../../../api/admin";
import { FormActions } from "../../../components/EntityForm";
import { useLanguages } from "../../../hooks/useLanguages";
import { useVoices } from "../../../hooks/useVoices";
import { contentUrl } from "../../../lib/content";
import { succeed, warn } from "../../../lib/notify";
import { useAdminForm } from "../hooks/useAdminForm";
import { useAdminPresets } from "../hooks/useAdminPresets";
import { useSaveAdminPreset } from "../hooks/useSaveAdminPreset";
import { AdminField } from "./AdminField";

/** Preset characters: create, edit, photo (issue 9). */
export function PresetsSection() {
  const presets = useAdminPresets();
  const [editing, setEditing] = useState<AdminPreset | "new" | null>(null);
  return (
    <>
      <div className="row-actions">
        <button type="button" className="button button--primary" onClick={() => setEditing("new")}>
          New preset character
        </button>
      </div>
      {presets.data === undefined ? (
        <p className="muted">Loading preset characters…</p>
      ) : (
        <table className="data-table" aria-label="Preset characters">
          <thead>
            <tr>
              <th>Photo</th>
              <th>Name</th>
              <th>Voice</th>
              <th>Backstory</th>
              <th>Actions</th>
            </tr>
          </thead>
          <tbody>
            {presets.data.map((preset) => (
              <tr key={preset.id}>
                <td data-label="Photo">
                  <img
                    src={contentUrl("predefined-characters", preset.photo)}
                    alt=""
                    width={48}
                    height={48}
                  />
                </td>
                <td data-label="Name">{preset.name}</td>
                <td data-label="Voice">{preset.voice}</td>
                <td data-label="Backstory">{preset.description.slice(0, 80)}</td>
                <td data-label="Actions">
                  <button
                    type="button"
                    className="button button--ghost"
                    aria-label={`Edit ${preset.name}`}
                    onClick={() => setEditing(preset)}
                  >
                    Edit
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
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
    // issue 16: the server's rules (common/validation.ts) first, with the sentence it would answer.
    const problem = firstProblem([
      [RULES.characterName, input.name],
      [RULES.characterVoice, input.voice],
      [RULES.characterLanguage, input.languageId],
      [RULES.backstory, input.description],
      [RULES.greeting, input.greeting],
      [RULES.appearance, input.appearance],
    ]);
    if (problem) {
      warn(problem);
      return;
    }
    save.mutate(input, {
      onSuccess: (answer) => {
        succeed(answer.message || "Saved.");
        onDone();
      },
    });
  };
  return (
    <form
      className="form admin-form"
      aria-label={preset ? `Edit preset ${preset.name}` : "New preset character"}
      onSubmit={onSubmit}
    >
      <h2>{preset ? `Edit ${preset.name}` : "New preset character"}</h2>
      <AdminField label="Name" kind="text" {...form.text("name")} />
      <AdminField
        label="Sex"
        kind="select"
        value={values.sex}
        onChange={(v) => set("sex", v === "1" ? "1" : "0")}
        options={[
          { value: "0", label: "Female" },
          { value: "1", label: "Male" },
        ]}
      />
      <AdminField
        label="Voice"
        kind="select"
        value={values.voice || voiceOptions[0]?.value || ""}
        onChange={(v) => set("voice", v)}
        options={voiceOptions}
      />
      <AdminField
        label="Language"
        kind="select"
        value={values.languageId || languageOptions[0]?.value || ""}
        onChange={(v) => set("languageId", v)}
        options={languageOptions}
      />
      <AdminField label="Backstory" kind="textarea" {...form.text("description")} />
      <AdminField label="Greeting" kind="textarea" {...form.text("greeting")} />
      <AdminField label="Appearance" kind="text" {...form.text("appearance")} />
      <div className="field">
        <label htmlFor="admin-preset-photo">Photo (JPEG or PNG)</label>
        <input
          id="admin-preset-photo"
          type="file"
          accept="image/jpeg,image/png"
          onChange={(event) => set("photo", event.target.files?.[0])}
        />
      </div>
      <FormActions onCancel={onDone} submitLabel="Save preset" pending={save.isPending} />
    </form>
  );
}
