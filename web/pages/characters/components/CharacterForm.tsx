import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { useNavigate } from "react-router";
import { RULES } from "../../../../common/validation";
import type { CharacterDetail } from "../../../api/characters";
import { CountedTextArea } from "../../../components/CountedTextArea";
import { FormActions } from "../../../components/EntityForm";
import { PhotoField } from "../../../components/PhotoField";
import { SelectField } from "../../../components/SelectField";
import { showRequiredFieldsAlert } from "../../../components/signedInDialogs";
import { TextField } from "../../../components/TextField";
import { useLanguages } from "../../../hooks/useLanguages";
import { useRequiredFields } from "../../../hooks/useRequiredFields";
import { useSessionUser } from "../../../hooks/useSessionUser";
import { useVoices } from "../../../hooks/useVoices";
import { contentUrl } from "../../../lib/content";
import { succeed, warn } from "../../../lib/notify";
import { firstLocalProblem } from "../../../lib/validationText";
import { useSaveCharacter } from "../hooks/useSaveCharacter";
import { useVoicePreview } from "../hooks/useVoicePreview";
import { draftsFromBook, lorebookField } from "../lorebookDraft";
import { LorebookEditor } from "./LorebookEditor";
import { VoicePreviewButton } from "./VoicePreviewButton";

/** product.md §5: sex options Female ('0') and Male ('1'), as keys of the "characters" catalogue. */
const SEX_OPTIONS = [
  { value: "0", label: "form.female" },
  { value: "1", label: "form.male" },
];

const LIST_PATH = "/characters/list";

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
 * edited as a list of entries and sent with the form. Save sends the multipart form; success shows the
 * server's message as a success toast and, when it goes away, returns to the list (product.md §4).
 */
export function CharacterForm({ character }: CharacterFormProps) {
  const { t } = useTranslation("characters");
  const navigate = useNavigate();
  const user = useSessionUser();
  const languages = useLanguages();
  const voices = useVoices();
  const save = useSaveCharacter();
  const preview = useVoicePreview();
  const required = useRequiredFields({
    name: character?.characterName ?? "",
    sex: character?.characterSex ?? "",
    voice: character?.characterVoice ?? "",
    language: character?.languageUUID ?? "",
    backstory: character?.characterDescription ?? "",
  });
  const [greeting, setGreeting] = useState(character?.characterGreeting ?? "");
  const [appearance, setAppearance] = useState(character?.characterAppearance ?? "");
  const [photo, setPhoto] = useState<File | undefined>(undefined);
  const [lore, setLore] = useState(() => draftsFromBook(character?.characterLorebook));
  // The lorebook is sent only when edited: an untouched one is kept by the server as stored.
  const [initialLore] = useState(() => lorebookField(character?.characterLorebook, lore));
  const [saved, setSaved] = useState(false);

  const showPhoto = user?.pl === "1";
  const showAppearance = user?.il === "1";
  const { values, invalid, setValue, bind } = required;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending || saved) return;
    if (!required.validate()) {
      void showRequiredFieldsAlert();
      return;
    }
    const problem = firstLocalProblem([
      [RULES.characterName, values.name],
      [RULES.characterVoice, values.voice],
      [RULES.characterLanguage, values.language],
      [RULES.backstory, values.backstory],
      [RULES.greeting, greeting],
      [RULES.appearance, showAppearance ? appearance : ""],
    ]);
    if (problem) {
      warn(problem);
      return;
    }
    preview.stop();
    const loreField = lorebookField(character?.characterLorebook, lore);
    save.mutate(
      {
        id: character?.characterUUID,
        name: values.name,
        sex: values.sex,
        voice: values.voice,
        language: values.language,
        description: values.backstory,
        greeting,
        // Without il the field is hidden and sent empty: the server keeps the stored appearance
        // (an edit after a downgrade must not erase it).
        appearance: showAppearance ? appearance : "",
        photo: showPhoto ? photo : undefined,
        oldPhoto: character?.characterPhoto,
        lorebook: loreField === initialLore ? undefined : loreField,
      },
      {
        onSuccess: (answer) => {
          setSaved(true);
          succeed(answer.message || t("form.saved"), undefined, () => navigate(LIST_PATH));
        },
      },
    );
  };

  return (
    <form className="form entity-form" onSubmit={onSubmit} noValidate>
      {showPhoto && (
        <PhotoField
          label={t("form.photo")}
          currentSrc={contentUrl("characters", character?.characterPhoto)}
          file={photo}
          onChange={setPhoto}
        />
      )}
      <TextField label={t("form.name")} {...bind("name")} />
      <SelectField
        label={t("form.sex")}
        {...bind("sex")}
        options={SEX_OPTIONS.map((option) => ({ value: option.value, label: t(option.label) }))}
        placeholder={t("form.selectSex")}
      />
      <div className="voice-row">
        <SelectField
          label={t("form.voice")}
          value={values.voice}
          options={(voices.data ?? []).map((voice) => ({ value: voice.voiceName, label: voice.voiceName }))}
          placeholder={voices.isLoading ? t("form.loadingVoices") : t("form.selectVoice")}
          onChange={(value) => {
            preview.stop();
            setValue("voice", value);
          }}
          invalid={invalid.voice}
        />
        <VoicePreviewButton
          state={preview.state}
          onClick={() => preview.toggle(values.voice)}
          disabled={values.voice === "" && preview.state === "idle"}
        />
      </div>
      <SelectField
        label={t("form.language")}
        {...bind("language")}
        options={(languages.data ?? []).map((language) => ({
          value: language.languageUUID,
          label: language.languageName,
        }))}
        placeholder={languages.isLoading ? t("form.loadingLanguages") : t("form.selectLanguage")}
      />
      <CountedTextArea
        label={t("form.backstory")}
        {...bind("backstory")}
        maxLength={RULES.backstory.max}
        rows={7}
      />
      <CountedTextArea
        label={t("form.greeting")}
        value={greeting}
        onChange={setGreeting}
        maxLength={RULES.greeting.max}
        rows={3}
      />
      {showAppearance && (
        <CountedTextArea
          label={t("form.appearance")}
          value={appearance}
          onChange={setAppearance}
          maxLength={RULES.appearance.max}
          rows={2}
        />
      )}
      <LorebookEditor drafts={lore} onChange={setLore} />
      <FormActions
        onCancel={() => navigate(LIST_PATH)}
        submitLabel={t("form.save")}
        pending={save.isPending}
        done={saved}
      />
    </form>
  );
}
