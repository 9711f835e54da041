import { Link } from "react-router";

/** 'Start Chatting' in a row of the character or group list: opens /chat with the chat's id (spec 4). */
export function StartChatLink({ chatId }: { chatId: string }) {
  return (
    <Link className="button button--primary button--small" to="/chat" state={{ id: chatId }}>
      Start Chatting
    </Link>
  );
}
