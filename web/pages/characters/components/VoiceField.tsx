// The character form's voice choice and its preview button (product.md §2 "Character form").
import { useTranslation } from "react-i18next";
import { SelectField } from "../../../components/SelectField";
import { useVoices } from "../../../hooks/useVoices";
import type { VoicePreview } from "../hooks/useVoicePreview";
import { VoicePreviewButton } from "./VoicePreviewButton";

/**
 * The required voice (product.md §5) among the server's voices ('Loading voices...' until they
 * come), with the button that plays or stops a sample of the chosen one; choosing another voice
 * stops a sample that is playing.
 */
export function VoiceField({
  value,
  invalid,
  onChange,
  preview,
}: {
  value: string;
  invalid: boolean;
  onChange: (voice: string) => void;
  preview: VoicePreview;
}) {
  const { t } = useTranslation("characters");
  const voices = useVoices();
  return (
    <div className="voice-row">
      <SelectField
        label={t("form.voice")}
        value={value}
        options={(voices.data ?? []).map((voice) => ({ value: voice.voiceName, label: voice.voiceName }))}
        placeholder={voices.isLoading ? t("form.loadingVoices") : t("form.selectVoice")}
        onChange={(voice) => {
          preview.stop();
          onChange(voice);
        }}
        invalid={invalid}
      />
      <VoicePreviewButton
        state={preview.state}
        onClick={() => preview.toggle(value)}
        disabled={value === "" && preview.state === "idle"}
      />
    </div>
  );
}
