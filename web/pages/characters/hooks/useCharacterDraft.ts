// The character form's values and its Save (product.md §2 "Character form", §5 "Character save").
import { type FormEvent, useState } from "react";
import { useTranslation } from "react-i18next";
import { RULES } from "../../../../common/validation";
import type { CharacterDetail, GenerationFields } from "../../../api/characters";
import { formReady } from "../../../components/formChecks";
import { showRequiredFieldsAlert } from "../../../components/signedInDialogs";
import { type RequiredFields, useRequiredFields } from "../../../hooks/useRequiredFields";
import { type SaveAndReturn, useSaveAndReturn } from "../../../hooks/useSaveAndReturn";
import { warn } from "../../../lib/notify";
import { generationFieldsOf, generationProblemKey } from "../generationDraft";
import { draftsFromBook, type LoreDraft, lorebookField } from "../lorebookDraft";
import { useSaveCharacter } from "./useSaveCharacter";

/** Which optional parts the session shows (product.md §2: photo with pl '1', appearance with il '1'). */
export interface CharacterFormParts {
  photo: boolean;
  appearance: boolean;
}

/** The character form's state (see `useCharacterDraft`). */
export interface CharacterDraft extends SaveAndReturn {
  /** Name, sex, voice, language and backstory: the required fields (product.md §5). */
  required: RequiredFields<"name" | "sex" | "voice" | "language" | "backstory">;
  greeting: string;
  setGreeting: (value: string) => void;
  appearance: string;
  setAppearance: (value: string) => void;
  photo: File | undefined;
  setPhoto: (file: File | undefined) => void;
  lore: LoreDraft[];
  setLore: (drafts: LoreDraft[]) => void;
  /** The Generation section (reply length, temperature, author's note, depth). */
  generation: GenerationFields;
  setGeneration: (fields: GenerationFields) => void;
  /** True while the save is in flight. */
  pending: boolean;
  onSubmit: (event: FormEvent) => void;
}

/**
 * The values of the character form for `character` (undefined: a new one) and its Save: the
 * required fields (a blank one → the 'Oops...' modal), then the server's rules in the browser
 * (common/validation.ts, their sentence as a warning toast), then the Generation section's
 * bounds (common/generation.ts, likewise), then `beforeSend` (the voice preview stops) and the
 * multipart save. Hidden parts are sent empty: without il the server keeps the stored
 * appearance, without pl no photo goes. The lorebook and the Generation section go only when
 * edited (untouched, the server keeps them as stored). Success: the server's message as a success toast, then the list.
 */
export function useCharacterDraft(
  character: CharacterDetail | undefined,
  shown: CharacterFormParts,
  beforeSend: () => void,
): CharacterDraft {
  const { t } = useTranslation("characters");
  const save = useSaveCharacter();
  const ending = useSaveAndReturn();
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
  const [initialLore] = useState(() => lorebookField(character?.characterLorebook, lore));
  const [generation, setGeneration] = useState(() => generationFieldsOf(character));
  const [initialGeneration] = useState(() => JSON.stringify(generation));
  const { values } = required;
  // Without il the field is hidden and sent empty: the server keeps the stored appearance
  // (an edit after a downgrade must not erase it).
  const sentAppearance = shown.appearance ? appearance : "";

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (save.isPending || ending.saved) return;
    const checks = [
      [RULES.characterName, values.name],
      [RULES.characterVoice, values.voice],
      [RULES.characterLanguage, values.language],
      [RULES.backstory, values.backstory],
      [RULES.greeting, greeting],
      [RULES.appearance, sentAppearance],
    ] as const;
    if (!formReady(required, checks, { warn, onBlank: () => void showRequiredFieldsAlert() })) return;
    const generationProblem = generationProblemKey(generation);
    if (generationProblem !== null) {
      warn(t(generationProblem));
      return;
    }
    beforeSend();
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
        appearance: sentAppearance,
        photo: shown.photo ? photo : undefined,
        oldPhoto: character?.characterPhoto,
        lorebook: loreField === initialLore ? undefined : loreField,
        generation: JSON.stringify(generation) === initialGeneration ? undefined : generation,
      },
      { onSuccess: (answer) => ending.onSaved(answer.message || t("form.saved")) },
    );
  };

  return {
    ...ending,
    required,
    greeting,
    setGreeting,
    appearance,
    setAppearance,
    photo,
    setPhoto,
    lore,
    setLore,
    generation,
    setGeneration,
    pending: save.isPending,
    onSubmit,
  };
}
