// Group chats' membership (product.md §6, §7): only the user's own characters, at most GROUP_MAX_MEMBERS.
import { randomUUID } from "node:crypto";
import { GROUP_MAX_MEMBERS } from "../../../common/constants";
import type { User } from "../../db/schema";
import { badRequest, forbidden, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import type { Conversation } from "../conversation/conversation";
import type { ChatRepo } from "./chat.repo";

/**
 * Group chats' membership (product.md §6, 7 `chat/group/new`, `chat/group/member/add|remove`): only the
 * user's own characters, at most GROUP_MAX_MEMBERS. Ids are checked against the user first.
 */
export class GroupsService {
  constructor(
    private readonly repo: ChatRepo,
    private readonly conversation: Conversation,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Starts a group chat with one of the user's characters (product.md §7 `chat/group/new`).
   * @returns the page to open: the group's chat. @throws AppError 404 for another user's character.
   */
  async newGroup(user: User, characterId: string): Promise<string> {
    if (!(await this.conversation.chats.findOwnedCharacter(user, characterId)))
      throw notFound(msg("characters.characterNotFound"));
    const groupId = randomUUID();
    await this.repo.createGroup(user.id, groupId, characterId, this.now());
    return `/character-select/${groupId}`;
  }

  /**
   * Adds one of the user's characters to one of their groups (product.md §6: at most 4 members, only
   * the user's own characters). @returns the page to open.
   * @throws AppError 404 for a group or character that is not the user's; 403 when full; 400 when already in.
   */
  async addMember(user: User, groupId: string, characterId: string): Promise<string> {
    if (!(await this.conversation.chats.findOwnedGroup(user, groupId)))
      throw notFound(msg("characters.groupNotFound"));
    if (!(await this.conversation.chats.findOwnedCharacter(user, characterId)))
      throw notFound(msg("characters.characterNotFound"));
    const result = await this.repo.addMember(groupId, characterId, GROUP_MAX_MEMBERS, this.now());
    if (result === "full")
      throw forbidden(msg("chat.groupChatHoldsMostMembers", { GROUP_MAX_MEMBERS }), "group_full");
    if (result === "already") throw badRequest(msg("chat.characterAlreadyGroup"));
    return `/character-select/${groupId}`;
  }

  /** Removes a member from one of the user's groups. @throws AppError 404 when not the user's or not a member. */
  async removeMember(user: User, groupId: string, characterId: string): Promise<string> {
    if (!(await this.conversation.chats.findOwnedGroup(user, groupId)))
      throw notFound(msg("characters.groupNotFound"));
    if (!(await this.repo.removeMember(groupId, characterId))) throw notFound(msg("chat.characterNotGroup"));
    return `/character-select/${groupId}`;
  }
}
