// The 'Start Chatting' link of a character or group list row (product.md §4).
import { useTranslation } from "react-i18next";
import { Link } from "react-router";

/** 'Start Chatting' in a row of the character or group list: opens /chat with the chat's id (product.md §4). */
export function StartChatLink({ chatId }: { chatId: string }) {
  const { t } = useTranslation("characters");
  return (
    <Link className="button button--primary button--small" to="/chat" state={{ id: chatId }}>
      {t("table.startChat")}
    </Link>
  );
}
