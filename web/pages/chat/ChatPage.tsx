// The /chat screen (product.md §2, §4 "Chat loading"): the session id from navigation state, the chat profile, one-to-one or group.
import { useDeferredValue, useEffect } from "react";
import { Link, useLocation } from "react-router";
import { Spinner } from "../../components/Spinner";
import { useDarkMode } from "../../hooks/useDarkMode";
import { useSessionUser } from "../../hooks/useSessionUser";
import { whenIdle } from "../../lib/nextTask";
import { ChatConversation } from "./ChatConversation";
import { useChatProfile } from "./hooks/useChatProfile";
import { jumpFrom } from "./hooks/useMessageJump";
import { chatTexts } from "./texts";
import { warmTextStyles } from "./warmTextStyles";
import "../../styles/signed-in.css";
import "./chat.css";
import "./chat-panels.css";
import "./images.css";
import "./voice.css";

export { warmTextStyles };

/** The chat session id from the navigation state (product.md §2: empty when none was given). */
function sessionIdFrom(state: unknown): string {
  if (typeof state === "object" && state !== null && "id" in state && typeof state.id === "string") {
    return state.id;
  }
  return "";
}

/**
 * `/chat` (product.md §2 "Chat screen", product.md §4 "Chat loading"): reads the session id from the
 * navigation state, loads the chat profile (GET /chat/profile); a non-empty
 * `characters[0].gId` makes it a group chat whose id is that gId, else the chat id is
 * `characters[0].id`. Browser history keeps the state, so a reload reopens the same chat.
 */
export function ChatPage() {
  const location = useLocation();
  const sessionId = sessionIdFrom(location.state);
  const user = useSessionUser();
  const profile = useChatProfile(user?.id, sessionId);
  // The conversation mounts in a deferred render, which React splits into short tasks: a query's
  // answer is a synchronous update, and mounting the whole screen in one would block a phone's main
  // thread for a long task (docs/benchmarks.md: opening a long chat). The spinner stays meanwhile.
  const info = useDeferredValue(profile.data);
  useDarkMode();
  // The bubbles' fonts, loaded while the profile and history load (a no-op when the chat list did it).
  useEffect(() => whenIdle(() => void warmTextStyles()), []);

  if (profile.isLoading || (profile.data !== undefined && info === undefined)) {
    return (
      <div className="chat-screen chat-screen--center">
        <Spinner label={chatTexts.loadingChat} />
      </div>
    );
  }
  const first = info?.characters[0];
  if (user === null || info === undefined || first === undefined) {
    return (
      <div className="chat-screen chat-screen--center">
        <div className="card card--narrow system-card">
          <h1>{chatTexts.unavailableTitle}</h1>
          <p>{chatTexts.unavailableText}</p>
          <Link className="button button--primary" to="/characters/list">
            {chatTexts.changeCharacter}
          </Link>
        </div>
      </div>
    );
  }
  const isGroup = first.gId !== "";
  const chatId = isGroup ? first.gId : first.id;
  // Every navigation (New Chat, a member change) mounts a fresh conversation.
  return (
    <ChatConversation
      key={`${chatId}:${location.key}`}
      userId={user.id}
      info={info}
      chatId={chatId}
      isGroup={isGroup}
      jump={jumpFrom(location.state)}
    />
  );
}
