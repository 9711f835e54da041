// The footer's request menu (product.md §2, §6, §9): Attach, Camera, portrait and landscape requests, canned photo captions.
import { type ChangeEvent, useRef } from "react";
import {
  PHOTO_ACCEPT,
  PHOTO_CAPTIONS,
  PHOTO_TYPE_LANDSCAPE,
  PHOTO_TYPE_PORTRAIT,
  type PhotoType,
} from "../../../../common/constants";
import { isAppleDevice } from "../../../lib/device";
import { useChatMenu } from "../hooks/useChatMenu";
import { imageTexts } from "../imageTexts";
import { ChatIcon } from "./ChatIcon";
import { ChatMenuButton } from "./ChatMenuButton";

/** One entry of the request menu: a menu item button (disabled: shown, not offered). */
function MenuEntry({ label, onPick, disabled }: { label: string; onPick: () => void; disabled?: boolean }) {
  return (
    <button type="button" role="menuitem" className="dropdown__item" onClick={onPick} disabled={disabled}>
      {label}
    </button>
  );
}

interface RequestMenuProps {
  /** Pictures on request are on (capability imageRequests). */
  pictures: boolean;
  /** Why they are off (shown on one line under the disabled entries); "" when on. */
  picturesReason: string;
  /** Attach and Camera are on (capability photoUpload). */
  photos: boolean;
  disabled: boolean;
  onAttach: (file: File) => void;
  onCamera: () => void;
  onRequest: (message: string, type: PhotoType) => void;
  /** 'Send a photo of..': the words come from the message box. */
  onPhotoOf: () => void;
}

/**
 * The footer's request menu (product.md §2): Attach (.jpg, .jpeg, .png), Camera (hidden on Apple
 * devices), Send a portrait photo, Send a landscape photo, Send a photo of.., and the 10 canned
 * captions (product.md §9). Render it only when the plan's `il` is '1' (product.md §6). Attach and Camera
 * need no image engine; without one the picture requests stay in the menu, disabled,
 * with the reason on one visible line.
 */
export function RequestMenu(props: RequestMenuProps) {
  const menu = useChatMenu();
  const { root, pick } = menu;
  const file = useRef<HTMLInputElement>(null);
  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    event.target.value = "";
    if (chosen) props.onAttach(chosen);
  };

  return (
    <div className="dropdown request-menu" ref={root}>
      <ChatMenuButton menu={menu} label={imageTexts.requestMenu} disabled={props.disabled}>
        <ChatIcon d="M20 5h-3.2L15 3H9L7.2 5H4a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2h16a2 2 0 0 0 2-2V7a2 2 0 0 0-2-2zm-8 13a5 5 0 1 1 0-10 5 5 0 0 1 0 10zm0-8a3 3 0 1 0 0 6 3 3 0 0 0 0-6z" />
      </ChatMenuButton>
      <input
        ref={file}
        type="file"
        accept={PHOTO_ACCEPT}
        hidden
        aria-label={imageTexts.attach}
        onChange={onFile}
      />
      <div {...menu.list} role="menu" aria-label={imageTexts.requestMenu}>
        {props.photos && <MenuEntry label={imageTexts.attach} onPick={pick(() => file.current?.click())} />}
        {props.photos && !isAppleDevice() && (
          <MenuEntry label={imageTexts.camera} onPick={pick(props.onCamera)} />
        )}
        {!props.pictures && (
          <>
            <MenuEntry label={imageTexts.sendPortrait} onPick={() => {}} disabled />
            <MenuEntry label={imageTexts.sendLandscape} onPick={() => {}} disabled />
            <MenuEntry label={imageTexts.sendPhotoOf} onPick={() => {}} disabled />
            <p className="request-menu__reason" role="note">
              {props.picturesReason || imageTexts.picturesOff}
            </p>
          </>
        )}
        {props.pictures && (
          <>
            <MenuEntry
              label={imageTexts.sendPortrait}
              onPick={pick(() => props.onRequest(imageTexts.sendPortrait, PHOTO_TYPE_PORTRAIT))}
            />
            <MenuEntry
              label={imageTexts.sendLandscape}
              onPick={pick(() => props.onRequest(imageTexts.sendLandscape, PHOTO_TYPE_LANDSCAPE))}
            />
            <MenuEntry label={imageTexts.sendPhotoOf} onPick={pick(props.onPhotoOf)} />
            <p className="request-menu__heading">{imageTexts.captions}</p>
            {PHOTO_CAPTIONS.map((caption) => (
              <MenuEntry
                key={caption.text}
                label={caption.text}
                onPick={pick(() => props.onRequest(caption.text, caption.type))}
              />
            ))}
          </>
        )}
      </div>
    </div>
  );
}
