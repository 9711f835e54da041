// The footer's emoji picker (product.md §2, §9): emoji-mart with bundled data, our search from 2 characters, skin tones, errors.
import { useEffect, useId, useRef, useState } from "react";
import { chatTexts } from "../texts";

/** product.md §9: the picker's layout and search rules. */
const PER_LINE = 8;
const MAX_FREQUENT_ROWS = 1;
const SEARCH_MIN_LENGTH = 2;
const MAX_RESULTS = 48;
/** product.md §9: 'Loading…' only when the picker is not ready after 1 s. */
const LOADING_MESSAGE_DELAY_MS = 1000;

interface FoundEmoji {
  id: string;
  name: string;
  native: string;
}

interface EmojiSelection {
  native?: string;
}

/** Whether the browser draws colour emoji: a drawn emoji has pixels that are not grey. */
function supportsColorEmoji(): boolean {
  try {
    const canvas = document.createElement("canvas");
    canvas.width = 20;
    canvas.height = 20;
    const context = canvas.getContext("2d", { willReadFrequently: true });
    if (context === null) return true;
    context.textBaseline = "top";
    context.font = "16px sans-serif";
    context.fillText("\u{1F600}", 0, 0);
    const pixels = context.getImageData(0, 0, 20, 20).data;
    for (let i = 0; i < pixels.length; i += 4) {
      const [r = 0, g = 0, b = 0, a = 0] = [pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3]];
      if (a > 0 && (Math.abs(r - g) > 10 || Math.abs(g - b) > 10)) return true;
    }
    return false;
  } catch {
    return true;
  }
}

/** The skin tone (1 to 6) chosen in emoji-mart's picker, which keeps it in local storage. */
function chosenSkin(): number {
  try {
    const skin = Number(JSON.parse(localStorage.getItem("emoji-mart.skin") ?? "1"));
    return Number.isInteger(skin) && skin >= 1 && skin <= 6 ? skin : 1;
  } catch {
    return 1;
  }
}

/** Search results as buttons, in the chosen skin tone where an emoji has tones. */
function toFound(value: unknown): FoundEmoji[] {
  if (!Array.isArray(value)) return [];
  const found: FoundEmoji[] = [];
  const skin = chosenSkin();
  for (const item of value as Array<{ id?: unknown; name?: unknown; skins?: Array<{ native?: unknown }> }>) {
    const native = (item.skins?.[skin - 1] ?? item.skins?.[0])?.native;
    if (typeof item.id === "string" && typeof native === "string")
      found.push({ id: item.id, name: typeof item.name === "string" ? item.name : item.id, native });
  }
  return found;
}

type SearchFn = (value: string, options: { maxResults: number; caller: string }) => Promise<unknown>;

/**
 * The footer's emoji picker (product.md §2, 5, 8, 9): emoji-mart's vanilla Picker with its data
 * bundled (nothing fetched), 8 per line, 6 skin tones, favourites limited to one row. Its
 * search box is ours so that searching starts at 2 characters; results use emoji-mart's
 * SearchIndex. 'Loading…' after 1 s if not ready, 'Could not load emoji.' on failure and
 * 'Your browser does not support color emoji.' without colour emoji.
 */
export function EmojiPicker({ onSelect }: { onSelect: (emoji: string) => void }) {
  const host = useRef<HTMLDivElement>(null);
  const search = useRef<SearchFn | null>(null);
  const onSelectRef = useRef(onSelect);
  onSelectRef.current = onSelect;
  const [state, setState] = useState<"loading" | "ready" | "failed">("loading");
  const [slow, setSlow] = useState(false);
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<FoundEmoji[]>([]);
  const [colorEmoji] = useState(supportsColorEmoji);
  const searchId = useId();

  useEffect(() => {
    let cancelled = false;
    const timer = window.setTimeout(() => setSlow(true), LOADING_MESSAGE_DELAY_MS);
    Promise.all([import("emoji-mart"), import("@emoji-mart/data")])
      .then(async ([mart, dataModule]) => {
        const data: unknown = dataModule.default;
        await mart.init({ data });
        if (cancelled || host.current === null) return;
        const picker = new mart.Picker({
          data,
          perLine: PER_LINE,
          maxFrequentRows: MAX_FREQUENT_ROWS,
          searchPosition: "none",
          skinTonePosition: "preview",
          previewPosition: "bottom",
          theme: "dark",
          autoFocus: false,
          onEmojiSelect: (emoji: EmojiSelection) => {
            if (emoji.native) onSelectRef.current(emoji.native);
          },
        });
        host.current.replaceChildren(picker as unknown as Node);
        search.current = mart.SearchIndex.search as SearchFn;
        setState("ready");
      })
      .catch((error: unknown) => {
        console.error("emoji picker", error);
        if (!cancelled) setState("failed");
      })
      .finally(() => window.clearTimeout(timer));
    return () => {
      cancelled = true;
      window.clearTimeout(timer);
    };
  }, []);

  useEffect(() => {
    const find = search.current;
    const value = query.trim();
    if (find === null || value.length < SEARCH_MIN_LENGTH) {
      setResults([]);
      return;
    }
    let current = true;
    find(value, { maxResults: MAX_RESULTS, caller: "chat" })
      .then((found) => {
        if (current) setResults(toFound(found));
      })
      .catch((error: unknown) => console.error("emoji search", error));
    return () => {
      current = false;
    };
  }, [query]);

  const searching = query.trim().length >= SEARCH_MIN_LENGTH;
  // The emoji's name read out and shown on hover.
  const namedFor = (name: string) => ({ "aria-label": name, title: name });
  return (
    <div className="emoji-popover" role="dialog" aria-label={chatTexts.emojiPicker}>
      {!colorEmoji && <p className="emoji-popover__note">{chatTexts.noColorEmoji}</p>}
      {state === "failed" && <p className="emoji-popover__note">{chatTexts.emojiFailed}</p>}
      {state === "loading" && slow && <p className="emoji-popover__note">{chatTexts.emojiLoading}</p>}
      {state === "ready" && (
        <>
          <label className="sr-only" htmlFor={searchId}>
            {chatTexts.searchEmoji}
          </label>
          <input
            id={searchId}
            type="search"
            className="emoji-popover__search"
            placeholder={chatTexts.searchEmoji}
            aria-describedby={`${searchId}-hint`}
            value={query}
            onChange={(event) => setQuery(event.target.value)}
          />
          <p id={`${searchId}-hint`} className="emoji-popover__hint">
            {query.trim().length > 0 && !searching ? chatTexts.searchHint : ""}
          </p>
        </>
      )}
      {searching && (
        <fieldset className="emoji-popover__results" aria-label={chatTexts.searchEmoji}>
          {results.length === 0 && <p className="emoji-popover__note">{chatTexts.noEmojiFound}</p>}
          {results.map((emoji) => (
            <button
              key={emoji.id}
              type="button"
              className="emoji-popover__emoji"
              {...namedFor(emoji.name)}
              onClick={() => onSelect(emoji.native)}
            >
              {emoji.native}
            </button>
          ))}
        </fieldset>
      )}
      <div ref={host} className="emoji-popover__picker" hidden={searching || state !== "ready"} />
    </div>
  );
}
