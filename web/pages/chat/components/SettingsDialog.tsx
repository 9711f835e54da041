// The chat Settings popup (product.md §2): voice, dark mode, Bluetooth, screen wake, notifications, silence, recall, About you, memories, import.
import { useId, useState } from "react";
import { RULES } from "../../../../common/validation";
import type { Capability } from "../../../api/capabilities";
import { type ChatSettings, type TextSetting, useChatSettings } from "../../../hooks/useChatSettings";
import { canPickAudioOutput, likelyBluetooth, pickAudioOutput } from "../../../lib/audioOutput";
import { succeed, warn } from "../../../lib/notify";
import { askNotificationPermission, notificationsSupported } from "../../../lib/replySound";
import { firstLocalProblem } from "../../../lib/validationText";
import { useAudioOutputs } from "../hooks/useAudioOutputs";
import { useChatServerSettings } from "../hooks/useChatRecall";
import { useModalDialog } from "../hooks/useModalDialog";
import { chatTexts } from "../texts";
import { voiceTexts } from "../voiceTexts";
import { ImportChatSection, RecallSwitch } from "./ChatHistorySettings";
import { AudioOutputPicker, MemoriesSection, SenderFields, SilenceSelect } from "./SettingsSections";
import { WriteFirstSwitch } from "./WriteFirstSwitch";

type Flag = Exclude<keyof ChatSettings, "silenceDuration" | TextSetting>;

interface SettingsDialogProps {
  chatId: string;
  /**
   * 'Import a SillyTavern chat' chose a file (the popup has closed): the chat screen asks and
   * imports (useChatImport). Absent in a group chat: an import is one to one.
   */
  onImportFile?: (file: File) => void;
  /** Speech input: voice chat needs it; off shows the toggle disabled with the reason. */
  speechInput: Capability | undefined;
  /** transcription on the server (STT_BASE_URL); off disables its toggle with the reason. */
  serverSpeech?: Capability;
  /** Whether a language model is ready (capabilities `chat`); without one 'write first' cannot be turned on. */
  modelReady: boolean;
  onClose: () => void;
}

/** One on/off setting of the popup: off with `disabledReason` when it cannot be used, `hidden` where unsupported. */
interface SettingToggle {
  key: Flag;
  label: string;
  disabledReason?: string;
  hidden?: boolean;
}

/**
 * The popup's switches in order (product.md §2): 'Bluetooth' only where the browser can choose
 * an audio output (`outputSupported`), 'Screen wake' where the Wake Lock API exists; voice chat
 * off while speech input is, server transcription off while the server has none.
 */
function settingToggles(
  speechInput: Capability | undefined,
  serverSpeech: Capability | undefined,
  outputSupported: boolean,
): SettingToggle[] {
  const wakeSupported = typeof navigator !== "undefined" && "wakeLock" in navigator;
  const voiceOff = speechInput !== undefined && !speechInput.enabled;
  return [
    { key: "muteVoice", label: chatTexts.muteVoice },
    { key: "darkMode", label: chatTexts.darkMode },
    { key: "enableBluetooth", label: chatTexts.bluetooth, hidden: !outputSupported },
    {
      key: "enableVoiceChat",
      label: chatTexts.voiceChat,
      disabledReason: voiceOff ? speechInput?.reason : undefined,
    },
    { key: "enableScreenWake", label: chatTexts.screenWake, hidden: !wakeSupported },
    { key: "enableNotifications", label: chatTexts.notifications },
    {
      key: "useServerSpeech",
      label: voiceTexts.serverSpeech,
      disabledReason: serverSpeech && !serverSpeech.enabled ? serverSpeech.reason : undefined,
    },
  ];
}

/**
 * The Settings popup (product.md §2): toggles mute voice, dark mode, Bluetooth, voice chat, screen
 * wake, notifications and the silence duration (1, 2, 3, 5, 10 s); Save stores them in local
 * storage and shows 'Settings saved!'. Below, the chat's Memories, each with a Delete.
 * A native modal <dialog>: Escape closes it.
 * 'Bluetooth' (shown where the browser can choose an audio output) picks the output
 * replies play on; 'Screen wake' is shown where the Wake Lock API exists; turning
 * 'Notifications' on asks the browser's permission for system notifications (refused: the
 * notice sound alone, said under the toggle). 'About you': the name the user goes by and a few
 * words about themself, sent with each message as `pname` and `ptext` (README "How the chat works").
 * In a one-to-one chat, 'Let {name} write first' (the server's setting, sent on Save
 * with the browser's time zone) lets the character check in after a quiet period; while no
 * language model is ready it cannot be turned on, and says why (WriteFirstSwitch).
 * 'Recall earlier messages' (the server's setting, sent on Save; one-to-one and group chats) lets
 * the character look up earlier parts of the chat. In a one-to-one chat, 'Import a SillyTavern
 * chat' takes a .jsonl file: the popup closes, the import asks for confirmation as New Chat does
 * and replaces the chat's history (`onImportFile`, useChatImport).
 */
export function SettingsDialog({
  chatId,
  onImportFile,
  speechInput,
  serverSpeech,
  modelReady,
  onClose,
}: SettingsDialogProps) {
  const dialog = useModalDialog();
  const [stored, save] = useChatSettings();
  const [draft, setDraft] = useState<ChatSettings>(stored);
  const { writeFirst, recall, save: saveOnServer } = useChatServerSettings(chatId);
  const titleId = useId();
  const baseId = useId();
  const outputs = useAudioOutputs();
  const [notificationsBlocked, setNotificationsBlocked] = useState(
    () => notificationsSupported() && Notification.permission === "denied",
  );

  const change = async (key: Flag, on: boolean) => {
    setDraft((before) => ({ ...before, [key]: on }));
    if (key === "enableNotifications" && on && notificationsSupported()) {
      setNotificationsBlocked(!(await askNotificationPermission()));
    }
    if (key === "enableBluetooth" && on) {
      // The browser's own picker where it has one, else a Bluetooth-looking output if listed.
      const chosen = canPickAudioOutput() ? await pickAudioOutput() : likelyBluetooth(outputs.outputs);
      if (!chosen) return;
      outputs.add(chosen);
      setDraft((before) => ({ ...before, audioOutputId: chosen.deviceId }));
    }
  };

  const toggles = settingToggles(speechInput, serverSpeech, outputs.supported).filter(
    (toggle) => !toggle.hidden,
  );

  const onSave = () => {
    const problem = firstLocalProblem([
      [RULES.senderName, draft.senderName],
      [RULES.senderAbout, draft.senderAbout],
    ]);
    if (problem) {
      warn(problem);
      return;
    }
    save({ ...draft, senderName: draft.senderName.trim(), senderAbout: draft.senderAbout.trim() });
    saveOnServer();
    succeed(chatTexts.settingsSaved);
    dialog.current?.close();
  };

  return (
    <dialog ref={dialog} className="chat-dialog chat-settings" aria-labelledby={titleId} onClose={onClose}>
      <h2 id={titleId}>{chatTexts.settingsTitle}</h2>
      <form
        method="dialog"
        onSubmit={(event) => {
          event.preventDefault();
          onSave();
        }}
      >
        <ul className="chat-settings__list">
          {toggles.map((toggle) => (
            <li key={toggle.key} title={toggle.disabledReason}>
              <label className="chat-switch">
                <input
                  type="checkbox"
                  role="switch"
                  aria-checked={draft[toggle.key]}
                  checked={draft[toggle.key]}
                  disabled={toggle.disabledReason !== undefined}
                  onChange={(event) => void change(toggle.key, event.target.checked)}
                />
                <span>{toggle.label}</span>
              </label>
              {toggle.key === "enableNotifications" && draft.enableNotifications && notificationsBlocked && (
                <p className="chat-settings__note">{voiceTexts.notificationsBlocked}</p>
              )}
              {toggle.key === "enableBluetooth" && draft.enableBluetooth && (
                <AudioOutputPicker
                  baseId={baseId}
                  draft={draft}
                  setDraft={setDraft}
                  outputs={outputs.outputs}
                  onChoose={() => void change("enableBluetooth", true)}
                />
              )}
            </li>
          ))}
          {writeFirst.state && (
            <li>
              <WriteFirstSwitch
                name={writeFirst.state.characterName}
                on={writeFirst.on}
                modelReady={modelReady}
                onChange={writeFirst.setChoice}
              />
            </li>
          )}
          {recall.state && <RecallSwitch on={recall.on} onChange={recall.setChoice} />}
          <li>
            <SilenceSelect baseId={baseId} draft={draft} setDraft={setDraft} />
          </li>
        </ul>
        <SenderFields baseId={baseId} draft={draft} setDraft={setDraft} />
        <MemoriesSection baseId={baseId} chatId={chatId} />
        {onImportFile && <ImportChatSection baseId={baseId} onFile={onImportFile} dialog={dialog} />}
        <div className="chat-settings__actions">
          <button type="button" className="button button--ghost" onClick={() => dialog.current?.close()}>
            {chatTexts.cancel}
          </button>
          <button type="submit" className="button button--primary">
            {chatTexts.save}
          </button>
        </div>
      </form>
    </dialog>
  );
}
