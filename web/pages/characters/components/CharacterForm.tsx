// The character form (product.md §2 "Character form", §5): fields, voice preview, lorebook, Generation section, Save.
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import type { CharacterDetail } from "../../../api/characters";
import { CountedTextArea } from "../../../components/CountedTextArea";
import { FormActions } from "../../../components/EntityForm";
import { PhotoField } from "../../../components/PhotoField";
import { SelectField } from "../../../components/SelectField";
import { TextField } from "../../../components/TextField";
import { useLanguages } from "../../../hooks/useLanguages";
import { useSessionUser } from "../../../hooks/useSessionUser";
import { contentUrl } from "../../../lib/content";
import { useCharacterDraft } from "../hooks/useCharacterDraft";
import { useVoicePreview } from "../hooks/useVoicePreview";
import { GenerationSection } from "./GenerationSection";
import { LorebookEditor } from "./LorebookEditor";
import { VoiceField } from "./VoiceField";

/** product.md §5: sex options Female ('0') and Male ('1'), as keys of the "characters" catalogue. */
const SEX_OPTIONS = [
  { value: "0", label: "form.female" },
  { value: "1", label: "form.male" },
];

interface CharacterFormProps {
  /** The character to edit; undefined to create one. */
  character?: CharacterDetail;
}

/**
 * The character form of /characters/add and /characters/update (product.md §2 "Character form"):
 * photo only with the session flag pl '1', appearance only with il '1'; name, sex, voice,
 * language and backstory are required (product.md §5: flagged red when blank, also while typing; on
 * Save the 'Oops...' modal). Backstory, greeting and appearance stop at 2000, 800 and 100
 * characters with a visible counter. The server's other rules (common/validation.ts:
 * e.g. "The name must be at most 50 characters.") are checked before sending and their sentence
 * shown as the warning toast a refusal would show; nothing is sent. The lorebook is
 * edited as a list of entries and sent with the form, as is the collapsible Generation section
 * (reply length, temperature, author's note and depth; blank: the model connection's default). Save sends the multipart form; success shows the
 * server's message as a success toast and, when it goes away, returns to the list (product.md §4).
 */
export function CharacterForm({ character }: CharacterFormProps) {
  const { t } = useTranslation("characters");
  const user = useSessionUser();
  const languages = useLanguages();
  const preview = useVoicePreview();
  const shown = { photo: user?.pl === "1", appearance: user?.il === "1" };
  const draft = useCharacterDraft(character, shown, preview.stop);
  const { values, invalid, setValue, bind } = draft.required;
  /** The props of a counted text area: its label, its rule's limit (product.md §9) and its height. */
  const counted = (name: "backstory" | "greeting" | "appearance", labelKey: string, rows: number) => ({
    label: t(labelKey),
    maxLength: RULES[name].max,
    rows,
  });

  return (
    <form className="form entity-form" onSubmit={draft.onSubmit} noValidate>
      {shown.photo && (
        <PhotoField
          label={t("form.photo")}
          currentSrc={contentUrl("characters", character?.characterPhoto)}
          file={draft.photo}
          onChange={draft.setPhoto}
        />
      )}
      <TextField label={t("form.name")} {...bind("name")} />
      <SelectField
        label={t("form.sex")}
        {...bind("sex")}
        options={SEX_OPTIONS.map((option) => ({ value: option.value, label: t(option.label) }))}
        placeholder={t("form.selectSex")}
      />
      <VoiceField
        value={values.voice}
        invalid={invalid.voice}
        onChange={(voice) => setValue("voice", voice)}
        preview={preview}
      />
      <SelectField
        label={t("form.language")}
        {...bind("language")}
        options={(languages.data ?? []).map((language) => ({
          value: language.languageUUID,
          label: language.languageName,
        }))}
        placeholder={languages.isLoading ? t("form.loadingLanguages") : t("form.selectLanguage")}
      />
      <CountedTextArea {...counted("backstory", "form.backstory", 7)} {...bind("backstory")} />
      <CountedTextArea
        {...counted("greeting", "form.greeting", 3)}
        value={draft.greeting}
        onChange={draft.setGreeting}
      />
      {shown.appearance && (
        <CountedTextArea
          {...counted("appearance", "form.appearance", 2)}
          value={draft.appearance}
          onChange={draft.setAppearance}
        />
      )}
      <LorebookEditor drafts={draft.lore} onChange={draft.setLore} />
      <GenerationSection fields={draft.generation} onChange={draft.setGeneration} />
      <FormActions
        onCancel={draft.backToList}
        submitLabel={t("form.save")}
        pending={draft.pending}
        done={draft.saved}
      />
    </form>
  );
}
