// The message search panel of the chat screen: the words, this chat or all chats, the results with the match marked.
import { useEffect, useId, useState } from "react";
import { useNavigate } from "react-router";
import { SEARCH_QUERY_MAX } from "../../../../common/search";
import { type SearchHit, snippetParts } from "../../../api/search";
import { formatDate } from "../../../i18n";
import type { MessageJump } from "../hooks/useMessageJump";
import { useMessageSearch } from "../hooks/useMessageSearch";
import { searchTexts } from "../searchTexts";
import { ChatIcon } from "./ChatIcon";
import { IconButton } from "./IconButton";
import "../search.css";

interface SearchPanelProps {
  /** The chat on screen (a character or group id): "This chat" searches only it. */
  chatId: string;
  onClose: () => void;
}

/**
 * Search (product.md "Search"): a field searching the user's messages and the replies in this
 * chat or in all their chats, newest first, the matched words marked; choosing a result opens its
 * chat at that message (navigation state `{id, jump}`, see useMessageJump). Escape closes it.
 */
export function SearchPanel({ chatId, onClose }: SearchPanelProps) {
  const [text, setText] = useState("");
  const [scope, setScope] = useState<"chat" | "all">("chat");
  const search = useMessageSearch(text, scope === "chat" ? chatId : undefined);
  const navigate = useNavigate();
  const scopeName = useId();

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);

  const open = (hit: SearchHit) => {
    const jump: MessageJump = { entryId: hit.entryId, side: hit.side, newer: hit.newer };
    onClose();
    navigate("/chat", { state: { id: hit.chatId, jump } });
  };

  return (
    <section className="search-panel" aria-label={searchTexts.title}>
      <div className="search-panel__bar">
        <input
          type="search"
          className="search-panel__field"
          aria-label={searchTexts.field}
          placeholder={searchTexts.placeholder}
          maxLength={SEARCH_QUERY_MAX}
          value={text}
          onChange={(event) => setText(event.target.value)}
          // biome-ignore lint/a11y/noAutofocus: the panel opens to be typed in
          autoFocus
        />
        <IconButton label={searchTexts.close} onClick={onClose}>
          <ChatIcon d="M19 6.41 17.59 5 12 10.59 6.41 5 5 6.41 10.59 12 5 17.59 6.41 19 12 13.41 17.59 19 19 17.59 13.41 12z" />
        </IconButton>
      </div>
      <fieldset className="search-panel__scope">
        <legend className="sr-only">{searchTexts.scope}</legend>
        {(["chat", "all"] as const).map((value) => (
          <label key={value}>
            <input type="radio" name={scopeName} checked={scope === value} onChange={() => setScope(value)} />
            {value === "chat" ? searchTexts.thisChat : searchTexts.allChats}
          </label>
        ))}
      </fieldset>
      <SearchResults search={search} showChat={scope === "all"} onOpen={open} />
    </section>
  );
}

/** The results, or what the search is doing: searching, failed, none found. */
function SearchResults({
  search,
  showChat,
  onOpen,
}: {
  search: ReturnType<typeof useMessageSearch>;
  showChat: boolean;
  onOpen: (hit: SearchHit) => void;
}) {
  if (search.searched === "" && !search.isSearching) return null;
  if (search.isError) return <p className="search-panel__note">{searchTexts.failed}</p>;
  if (search.hits.length === 0) {
    return (
      <p className="search-panel__note" aria-live="polite">
        {search.isSearching ? searchTexts.searching : searchTexts.none}
      </p>
    );
  }
  return (
    <ul className="search-panel__results" aria-label={searchTexts.results} aria-busy={search.isSearching}>
      {search.hits.map((hit) => (
        <li key={`${hit.entryId}:${hit.side}`}>
          <button type="button" className="search-hit" onClick={() => onOpen(hit)}>
            <span className="search-hit__meta">
              <span className="search-hit__who">
                {hit.side === "user" ? searchTexts.you : hit.characterName}
                {showChat && hit.side === "user" && hit.characterName ? ` → ${hit.characterName}` : ""}
              </span>
              <time dateTime={new Date(hit.time).toISOString()}>
                {formatDate(hit.time, { dateStyle: "medium", timeStyle: "short" })}
              </time>
            </span>
            <span className="search-hit__text">
              {snippetParts(hit).map((part, index) =>
                part.match ? (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts are fixed for a hit
                  <mark key={index}>{part.text}</mark>
                ) : (
                  // biome-ignore lint/suspicious/noArrayIndexKey: the parts are fixed for a hit
                  <span key={index}>{part.text}</span>
                ),
              )}
            </span>
          </button>
        </li>
      ))}
    </ul>
  );
}
