import { Link } from "react-router";
import type { CharacterGroup } from "../../../api/characters";
import { Avatar } from "../../../components/Avatar";
import { contentUrl } from "../../../lib/content";

/**
 * The Groups tab (spec 2): member avatars (40x40, round, name as title) or 'No Members', and
 * 'Start Chatting' with the group id as navigation state. Empty: 'No Groups created.'
 */
export function GroupsTable({ groups }: { groups: CharacterGroup[] }) {
  if (groups.length === 0) {
    return (
      <div className="empty-state">
        <p>No Groups created.</p>
      </div>
    );
  }
  return (
    <table className="data-table">
      <thead>
        <tr>
          <th scope="col">Characters</th>
          <th scope="col">Actions</th>
        </tr>
      </thead>
      <tbody>
        {groups.map((group) => (
          <tr key={group.groupUUID}>
            <td data-label="Characters">
              {group.members.length === 0 ? (
                <span className="muted">No Members</span>
              ) : (
                <div className="avatar-stack">
                  {group.members.map((member, index) => (
                    <Avatar
                      // biome-ignore lint/suspicious/noArrayIndexKey: members carry no id; the order is stable
                      key={`${member.memberName}-${index}`}
                      src={contentUrl("characters", member.memberPhoto)}
                      alt={member.memberName}
                      title={member.memberName}
                      size={40}
                    />
                  ))}
                </div>
              )}
            </td>
            <td data-label="Actions">
              <Link
                className="button button--primary button--small"
                to="/chat"
                state={{ id: group.groupUUID }}
              >
                Start Chatting
              </Link>
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
