import { Link } from "react-router";
import type { CharacterListItem } from "../../../../common/api";
import { Avatar } from "../../../components/Avatar";
import { contentUrl } from "../../../lib/content";
import { showTextPopup } from "../../../lib/dialogs";
import { truncate } from "../../../lib/text";

/**
 * The Characters tab (spec 2): Photo (with the name), Backstory cut to 50 characters with
 * 'Show more' opening the full text, and Actions with 'Start Chatting' (the character id goes
 * to /chat as navigation state). Empty: 'No characters found.'
 */
export function CharactersTable({ characters }: { characters: CharacterListItem[] }) {
  if (characters.length === 0) {
    return (
      <div className="empty-state">
        <p>No characters found.</p>
        <Link className="button button--primary" to="/characters/selection">
          Choose a preset character
        </Link>
      </div>
    );
  }
  return (
    <table className="data-table">
      <thead>
        <tr>
          <th scope="col">Photo</th>
          <th scope="col">Backstory</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {characters.map((character) => {
          const preview = truncate(character.characterDescription);
          return (
            <tr key={character.characterUUID}>
              <td data-label="Photo">
                <div className="identity">
                  <Avatar
                    src={contentUrl("characters", character.characterPhoto)}
                    alt={character.characterName}
                    size={56}
                  />
                  <span className="identity__name">{character.characterName}</span>
                </div>
              </td>
              <td data-label="Backstory" className="backstory">
                {preview.text}{" "}
                {preview.truncated && (
                  <button
                    type="button"
                    className="link-button link-button--inline"
                    onClick={() =>
                      void showTextPopup(character.characterName, character.characterDescription)
                    }
                  >
                    Show more
                  </button>
                )}
              </td>
              <td data-label="Actions">
                <Link
                  className="button button--primary button--small"
                  to="/chat"
                  state={{ id: character.characterUUID }}
                >
                  Start Chatting
                </Link>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
