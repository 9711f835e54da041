import { useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useId, useState } from "react";
import { RULES } from "../../../../common/validation";
import type { Capability } from "../../../api/capabilities";
import { getCheckins, setCheckins } from "../../../api/checkins";
import { Spinner } from "../../../components/Spinner";
import {
  type ChatSettings,
  SILENCE_OPTIONS_MS,
  type TextSetting,
  useChatSettings,
} from "../../../hooks/useChatSettings";
import {
  type AudioOutput,
  audioOutputSupported,
  canPickAudioOutput,
  likelyBluetooth,
  listAudioOutputs,
  pickAudioOutput,
} from "../../../lib/audioOutput";
import { succeed, warn } from "../../../lib/notify";
import { askNotificationPermission, notificationsSupported } from "../../../lib/replySound";
import { firstLocalProblem } from "../../../lib/validationText";
import { useChatMemories } from "../hooks/useChatMemories";
import { useModalDialog } from "../hooks/useModalDialog";
import { chatTexts } from "../texts";
import { voiceTexts } from "../voiceTexts";
import { WriteFirstSwitch } from "./WriteFirstSwitch";

type Flag = Exclude<keyof ChatSettings, "silenceDuration" | TextSetting>;

interface SettingsDialogProps {
  chatId: string;
  /** Speech input: voice chat needs it; off shows the toggle disabled with the reason. */
  speechInput: Capability | undefined;
  /** transcription on the server (STT_BASE_URL); off disables its toggle with the reason. */
  serverSpeech?: Capability;
  /** Whether a language model is ready (capabilities `chat`); without one 'write first' cannot be turned on. */
  modelReady: boolean;
  onClose: () => void;
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
 */
export function SettingsDialog({
  chatId,
  speechInput,
  serverSpeech,
  modelReady,
  onClose,
}: SettingsDialogProps) {
  const dialog = useModalDialog();
  const [stored, save] = useChatSettings();
  const [draft, setDraft] = useState<ChatSettings>(stored);
  const memories = useChatMemories(chatId, true);
  const queryClient = useQueryClient();
  const checkinsKey = ["chat-checkins", chatId];
  const checkins = useQuery({
    queryKey: checkinsKey,
    queryFn: () => getCheckins(chatId),
    enabled: chatId !== "",
  });
  const [writeFirst, setWriteFirst] = useState<boolean | null>(null);
  const writeFirstOn = writeFirst ?? checkins.data?.enabled ?? false;
  const titleId = useId();
  const baseId = useId();

  const wakeSupported = typeof navigator !== "undefined" && "wakeLock" in navigator;
  const outputSupported = audioOutputSupported();
  const [outputs, setOutputs] = useState<AudioOutput[]>([]);
  const [notificationsBlocked, setNotificationsBlocked] = useState(
    () => notificationsSupported() && Notification.permission === "denied",
  );
  useEffect(() => {
    if (!outputSupported) return;
    let active = true;
    void listAudioOutputs().then((found) => {
      if (active) setOutputs(found);
    });
    return () => {
      active = false;
    };
  }, [outputSupported]);

  const change = async (key: Flag, on: boolean) => {
    setDraft((before) => ({ ...before, [key]: on }));
    if (key === "enableNotifications" && on && notificationsSupported()) {
      setNotificationsBlocked(!(await askNotificationPermission()));
    }
    if (key === "enableBluetooth" && on) {
      // The browser's own picker where it has one, else a Bluetooth-looking output if listed.
      const chosen = canPickAudioOutput() ? await pickAudioOutput() : likelyBluetooth(outputs);
      if (!chosen) return;
      setOutputs((before) =>
        before.some((o) => o.deviceId === chosen.deviceId) ? before : [...before, chosen],
      );
      setDraft((before) => ({ ...before, audioOutputId: chosen.deviceId }));
    }
  };

  const voiceOff = speechInput !== undefined && !speechInput.enabled;
  const toggles: Array<{ key: Flag; label: string; disabledReason?: string; hidden?: boolean }> = [
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
    if (checkins.data && writeFirst !== null && writeFirst !== checkins.data.enabled) {
      setCheckins(chatId, writeFirst).then(
        (state) => queryClient.setQueryData(checkinsKey, state ?? null),
        () => warn(chatTexts.writeFirstFailed),
      );
    }
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
          {toggles
            .filter((toggle) => !toggle.hidden)
            .map((toggle) => (
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
                {toggle.key === "enableNotifications" &&
                  draft.enableNotifications &&
                  notificationsBlocked && (
                    <p className="chat-settings__note">{voiceTexts.notificationsBlocked}</p>
                  )}
                {toggle.key === "enableBluetooth" && draft.enableBluetooth && (
                  <span className="chat-settings__output">
                    <label htmlFor={`${baseId}-output`}>{voiceTexts.audioOutput}</label>
                    <select
                      id={`${baseId}-output`}
                      className="chat-settings__select"
                      value={draft.audioOutputId}
                      onChange={(event) => setDraft({ ...draft, audioOutputId: event.target.value })}
                    >
                      <option value="">{voiceTexts.systemDefault}</option>
                      {outputs.map((output) => (
                        <option key={output.deviceId} value={output.deviceId}>
                          {output.label}
                        </option>
                      ))}
                    </select>
                    {canPickAudioOutput() && (
                      <button
                        type="button"
                        className="button button--small button--ghost"
                        onClick={() => void change("enableBluetooth", true)}
                      >
                        {voiceTexts.chooseOutput}
                      </button>
                    )}
                  </span>
                )}
              </li>
            ))}
          {checkins.data && (
            <li>
              <WriteFirstSwitch
                name={checkins.data.characterName}
                on={writeFirstOn}
                modelReady={modelReady}
                onChange={setWriteFirst}
              />
            </li>
          )}
          <li>
            <label htmlFor={`${baseId}-silence`}>{chatTexts.silenceDuration}</label>
            <select
              id={`${baseId}-silence`}
              className="chat-settings__select"
              value={draft.silenceDuration}
              onChange={(event) => setDraft({ ...draft, silenceDuration: Number(event.target.value) })}
            >
              {SILENCE_OPTIONS_MS.map((ms) => (
                <option key={ms} value={ms}>
                  {chatTexts.seconds(ms / 1000)}
                </option>
              ))}
            </select>
          </li>
        </ul>
        <section className="chat-settings__sender" aria-labelledby={`${baseId}-sender`}>
          <h3 id={`${baseId}-sender`}>{chatTexts.aboutYou}</h3>
          <label htmlFor={`${baseId}-sender-name`}>{chatTexts.senderName}</label>
          <input
            id={`${baseId}-sender-name`}
            className="chat-settings__text"
            value={draft.senderName}
            maxLength={RULES.senderName.max}
            placeholder={chatTexts.senderNameHint}
            onChange={(event) => setDraft({ ...draft, senderName: event.target.value })}
          />
          <label htmlFor={`${baseId}-sender-about`}>{chatTexts.senderAbout}</label>
          <textarea
            id={`${baseId}-sender-about`}
            className="chat-settings__text"
            rows={2}
            value={draft.senderAbout}
            maxLength={RULES.senderAbout.max}
            placeholder={chatTexts.senderAboutHint}
            onChange={(event) => setDraft({ ...draft, senderAbout: event.target.value })}
          />
        </section>
        <section className="chat-settings__memories" aria-labelledby={`${baseId}-memories`}>
          <h3 id={`${baseId}-memories`}>{chatTexts.memories}</h3>
          {memories.isLoading && <Spinner size="small" label={chatTexts.loadingMemories} />}
          {!memories.isLoading && memories.memories.length === 0 && <p>{chatTexts.noMemories}</p>}
          <ul className="chat-settings__facts">
            {memories.memories.map((memory) => (
              <li key={memory.memoryUUID}>
                <span>
                  <strong>{memory.characterName}:</strong> {memory.fact}
                </span>
                <button
                  type="button"
                  className="button button--small button--danger"
                  aria-label={chatTexts.deleteMemory(memory.fact)}
                  disabled={memories.removingId === memory.memoryUUID}
                  onClick={() => memories.remove(memory.memoryUUID)}
                >
                  {chatTexts.delete}
                </button>
              </li>
            ))}
          </ul>
        </section>
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
