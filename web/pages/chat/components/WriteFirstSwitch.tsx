// The 'Let {name} write first' switch of the chat settings (check-ins), off with its reason while no language model is ready.
import { useId } from "react";
import { chatTexts } from "../texts";

interface WriteFirstSwitchProps {
  /** The character's name ("Let {name} write first"). */
  name: string;
  /** Whether the switch shows on (the choice being edited, else the server's setting). */
  on: boolean;
  /** Whether a language model is ready (capabilities `chat`): no check-in is written without one. */
  modelReady: boolean;
  onChange: (on: boolean) => void;
}

/**
 * The 'Let {name} write first' switch of the chat settings (check-ins). While no language model
 * is ready it cannot be turned on, and the reason is shown under it (the server refuses it too);
 * a switch already on can still be turned off. Once on, a note says when check-ins come.
 */
export function WriteFirstSwitch({ name, on, modelReady, onChange }: WriteFirstSwitchProps) {
  const reasonId = useId();
  const blocked = !modelReady && !on;
  return (
    <>
      <label className="chat-switch">
        <input
          type="checkbox"
          role="switch"
          aria-checked={on}
          checked={on}
          disabled={blocked}
          aria-describedby={modelReady ? undefined : reasonId}
          onChange={(event) => onChange(event.target.checked)}
        />
        <span>{chatTexts.writeFirst(name)}</span>
      </label>
      {!modelReady && (
        <p className="chat-settings__note" id={reasonId}>
          {chatTexts.writeFirstNoModel(name)}
        </p>
      )}
      {on && modelReady && <p className="chat-settings__note">{chatTexts.writeFirstNote}</p>}
    </>
  );
}
