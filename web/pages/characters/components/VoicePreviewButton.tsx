// The voice preview button's look (product.md §4): play image while idle, stop image while loading or playing.
import { useTranslation } from "react-i18next";
import type { VoicePreviewState } from "../hooks/useVoicePreview";

interface VoicePreviewButtonProps {
  state: VoicePreviewState;
  onClick: () => void;
  disabled?: boolean;
}

function PlayImage() {
  return (
    <svg className="voice-preview__image" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <circle cx="12" cy="12" r="11" fill="currentColor" opacity="0.18" />
      <path d="M9.5 7.5v9l7-4.5z" fill="currentColor" />
    </svg>
  );
}

function StopImage() {
  return (
    <svg className="voice-preview__image" viewBox="0 0 24 24" width="22" height="22" aria-hidden="true">
      <circle cx="12" cy="12" r="11" fill="currentColor" opacity="0.18" />
      <rect x="8" y="8" width="8" height="8" rx="1.5" fill="currentColor" />
    </svg>
  );
}

/**
 * The voice preview button (product.md §4): the play image while idle; the stop image while the
 * preview request runs and while the sample plays.
 */
export function VoicePreviewButton({ state, onClick, disabled }: VoicePreviewButtonProps) {
  const { t } = useTranslation("characters");
  const busy = state !== "idle";
  const label = busy ? t("form.stopPreview") : t("form.playPreview");
  return (
    <button
      type="button"
      className={busy ? "voice-preview voice-preview--busy" : "voice-preview"}
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      aria-busy={state === "loading"}
      data-state={state}
    >
      {busy ? <StopImage /> : <PlayImage />}
    </button>
  );
}
