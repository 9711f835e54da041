// Three animated dots beside the character's picture while a reply is pending (product.md §2).
import { Avatar } from "../../../components/Avatar";
import { chatTexts } from "../texts";

/** Three animated dots beside the character's picture while a reply is pending (product.md §2). */
export function TypingIndicator({ picture, name }: { picture: string; name: string }) {
  return (
    <div className="message message--reply">
      <Avatar src={picture} alt="" size={36} />
      <div
        className="bubble bubble--reply typing"
        role="status"
        aria-label={chatTexts.typing}
        title={chatTexts.isTyping(name)}
      >
        <span />
        <span />
        <span />
      </div>
    </div>
  );
}
