// The Create Character dropdown (product.md §2, §4): new, preset, random character and character card import.
import { useId, useRef } from "react";
import { useTranslation } from "react-i18next";
import { Link } from "react-router";
import { usePopup } from "../../../hooks/usePopup";
import { succeed } from "../../../lib/notify";
import { useCreateRandomCharacter } from "../hooks/useCreateRandomCharacter";
import { useImportCharacterCard } from "../hooks/useImportCharacterCard";

/** Character cards come as PNG (with a `chara`/`ccv3` chunk) or as the JSON itself. */
const CARD_ACCEPT = ".png,.json";

/**
 * The Create Character dropdown (product.md §2): 'New Character' (/characters/add) and 'Select Preset
 * Character' (/characters/selection); also 'Random Character' (product.md §4: a toast, the dropdown
 * closes, the list reloads) and 'Import Character Card' (a .png or .json card file).
 */
export function CreateCharacterMenu() {
  const { t } = useTranslation("characters");
  const { open, setOpen, root } = usePopup();
  const menuId = useId();
  const close = () => setOpen(false);
  const fileInput = useRef<HTMLInputElement>(null);
  const random = useCreateRandomCharacter();
  const importCard = useImportCharacterCard();
  const busy = random.isPending || importCard.isPending;

  const onRandom = () => {
    random.mutate(undefined, {
      onSuccess: (answer) => succeed(answer.message || t("create.randomDone")),
      onSettled: close,
    });
  };

  const onCardChosen = (file: File | undefined) => {
    if (fileInput.current !== null) fileInput.current.value = "";
    if (file === undefined) return;
    importCard.mutate(file, {
      onSuccess: (answer) => succeed(answer.message || t("create.imported")),
      onSettled: close,
    });
  };

  return (
    <div className="dropdown" ref={root}>
      <button
        type="button"
        className="button button--primary"
        aria-expanded={open}
        aria-controls={menuId}
        aria-busy={busy}
        onClick={() => setOpen(!open)}
      >
        {t("create.menu")} <span aria-hidden="true">▾</span>
      </button>
      {open && (
        <ul id={menuId} className="dropdown__menu create-menu">
          <li>
            {/* product.md §2: the relative paths add and selection, beside /characters/list. */}
            <Link to="../add" relative="path">
              {t("create.new")}
            </Link>
          </li>
          <li>
            <Link to="../selection" relative="path">
              {t("create.preset")}
            </Link>
          </li>
          <li>
            <button type="button" className="dropdown__item" onClick={onRandom} disabled={busy}>
              {t("create.random")}
            </button>
          </li>
          <li>
            <button
              type="button"
              className="dropdown__item"
              onClick={() => fileInput.current?.click()}
              disabled={busy}
            >
              {t("create.import")}
            </button>
          </li>
        </ul>
      )}
      <input
        ref={fileInput}
        type="file"
        accept={CARD_ACCEPT}
        hidden
        aria-label={t("create.cardFile")}
        onChange={(event) => onCardChosen(event.target.files?.[0])}
      />
    </div>
  );
}
