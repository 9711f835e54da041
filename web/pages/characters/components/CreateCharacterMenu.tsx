import { useCallback, useId, useRef, useState } from "react";
import { Link } from "react-router";
import { useDismiss } from "../../../hooks/useDismiss";

/**
 * The Create Character dropdown (spec 2). Only 'Select Preset Character' for now; 'New
 * Character' (/characters/add) comes with the character form.
 */
export function CreateCharacterMenu() {
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  const close = useCallback(() => setOpen(false), []);
  useDismiss(root, open, close);

  return (
    <div className="dropdown" ref={root}>
      <button
        type="button"
        className="button button--primary"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((value) => !value)}
      >
        Create Character <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul id={menuId} className="dropdown__menu">
          <li>
            <Link to="/characters/selection">Select Preset Character</Link>
          </li>
        </ul>
      )}
    </div>
  );
}
