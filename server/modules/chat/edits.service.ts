// Swipes, edits, deletes and rewinds of a chat: regenerated replies kept as swipes, edited texts, removed entries.
import type { ChatHistoryEntry } from "../../../common/api";
import { FIRST_MESSAGE_MARKER, REPLY_SWIPES_MAX } from "../../../common/constants";
import type { ChatHistoryRow, User } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import type { FileStorage } from "../../providers/storage/storage";
import { displayName } from "../conversation/chats.service";
import type { Conversation } from "../conversation/conversation";
import { presentHistoryEntry } from "../conversation/conversation.presenter";
import { assertAllowedContent } from "../safety/content-rules";
import { presentReply } from "./chat.presenter";
import { type ChatService, isPictureReply } from "./chat.service";
import { tooManySwipes } from "./reply-generator";
import type { ReplyVoice, TurnAnswer, TurnStream } from "./turn.service";

/**
 * What edits need of memory ("Edit, delete and rewind"), a port the composition root
 * fills with the memory module's service.
 */
export interface EditMemory {
  /**
   * The chat's entries from order key `fromSeq` on were changed or removed: the summary that
   * covers any of them is cleared (and its refresh queued); with `facts`, the facts drawn from
   * them are deleted and those messages are drawn again. Never throws (a failure is logged).
   */
  forgetFrom(input: {
    userId: string;
    userName: string;
    sessionId: string;
    fromSeq: number;
    facts: boolean;
  }): Promise<void>;
}

/** 400 while an entry's reply is being generated (nothing is changed under a generation). */
const stillGenerating = () => badRequest(msg("chat.replyStillBeingGenerated"));

/**
 * Swipes, edits, deletes and rewinds (routes in edits.routes.ts, contract in
 * common/api.ts above SwipeReply): a regenerated reply is kept as a further swipe of its
 * entry and chosen, the user chooses between them (swipe), edits their message or a reply's
 * text, deletes an entry or rewinds the chat to one, with the files of what is removed. Every id
 * is checked against the signed-in user first (404 "Message not found."). Only a regeneration runs
 * the model and counts one message of the quota.
 */
export class EditsService {
  constructor(
    private readonly chat: ChatService,
    private readonly conversation: Conversation,
    private readonly memory: EditMemory,
    /** The content area: the pictures and photos of removed entries are removed with them. */
    private readonly storage: FileStorage,
    /** Speaks a regenerated reply unless muted, per swipe. */
    private readonly voice: ReplyVoice | undefined,
  ) {}

  /**
   * POST /api/chat/regenerate: a new reply to the entry's message, stored as a further
   * swipe and chosen. Only the newest entry of a single chat, or the newest entry of that
   * member in a group, never a greeting. One message of the quota (given back when the model
   * gives nothing: the entry keeps its reply). Spoken unless `speak` is false; the audio is
   * recorded on the chosen swipe. With `stream`: `entry` (the entry with an empty reply,
   * status pending), `token`s of the new reply, `audio` per spoken sentence.
   * @throws AppError 404 when the entry is not the user's (or its character left the chat); 400
   *   for a greeting, a photo's reply, a picture reply, a check-in, an entry that is not the newest, one still being generated, one with
   *   REPLY_SWIPES_MAX swipes; 429 "quota_reached" at the quota's limit (the model is
   *   not run).
   */
  async regenerate(
    user: User,
    entryId: string,
    options: { speak: boolean },
    stream?: TurnStream,
  ): Promise<TurnAnswer> {
    const entry = await this.owned(user, entryId);
    if (entry.message === FIRST_MESSAGE_MARKER) {
      throw badRequest(msg("chat.greetingNotRegeneratedSwipeBetween"));
    }
    const found = await this.conversation.chats.chatOfEntry(user, entry);
    if (!found) throw notFound(msg("chat.messageNotFound"));
    const { chat, session } = found;
    // A photo's reply was written from what the vision model saw, a check-in (no message, one
    // character) from the memory: this path writes neither.
    if (entry.message_image) throw badRequest(msg("chat.replyPhotoNotRegenerated"));
    // A picture (made or being made) stays with the words it came with: a new text would sit under it.
    if (isPictureReply(entry)) throw badRequest(msg("chat.pictureNotRegenerated"));
    if (!chat.groupId && !entry.message) throw badRequest(msg("chat.checkNotRegenerated"));
    const character = chat.members.find((m) => m.id === entry.character_id);
    if (!character) throw notFound(msg("chat.characterNoLongerChat"));
    const newest = chat.groupId
      ? await this.conversation.history.newestEntryOf(session.id, character.id)
      : await this.conversation.history.newestEntry(session.id);
    if (newest?.id !== entry.id) {
      throw badRequest(
        chat.groupId
          ? msg("chat.onlyNamedNewestReplyRegenerated", { name: character.name })
          : msg("chat.onlyNewestReplyRegenerated"),
      );
    }
    if (entry.status === "pending") throw stillGenerating();
    const before = (await this.conversation.history.swipesOf([entry])).get(entry.id) ?? [];
    if (before.length >= REPLY_SWIPES_MAX) throw badRequest(tooManySwipes());
    const { hold, charge } = await this.chat.replies.claim(user, entry.id, stillGenerating);
    const voice = options.speak ? this.voice : undefined;
    const speaker = stream && voice?.replySpeaker(user, (audio) => stream.emit("audio", audio));
    const result = await this.chat.replies.run(user, chat, session, character, entry, {
      hold,
      charge,
      regenerate: { max: REPLY_SWIPES_MAX },
      onStart: stream
        ? async () => {
            await stream.attach(entry, false);
            const blank = { ...entry, reply_message: "", reply_audio_url: "", status: "pending" };
            stream.emit("entry", presentHistoryEntry(blank));
            speaker?.start(entry);
          }
        : undefined,
      onToken: stream
        ? (text) => {
            stream.emit("token", { text });
            speaker?.push(text);
          }
        : undefined,
    });
    let audioUrl = "";
    const done = result.entry;
    if (result.success && done) {
      if (speaker) audioUrl = await speaker.finish(done);
      else if (voice) audioUrl = await voice.replyAudio(user, done);
      if (audioUrl) await this.conversation.history.setSwipeAudio(done.id, done.swipe_index, audioUrl);
    } else if (speaker) {
      await speaker.finish(undefined);
    }
    const current = result.success ? done : await this.conversation.history.findOwnedEntry(user, entry.id);
    const swipes = current
      ? (await this.conversation.history.swipesOf([current])).get(current.id)
      : undefined;
    return {
      reply: presentReply({ ...result, entry: current ?? done, swipes }, audioUrl),
      modelMs: result.modelMs,
    };
  }

  /**
   * POST /api/chat/swipe: chooses the entry's swipe `index` (0-based); the entry's reply
   * and its audio become that swipe's, and it is what the model sees next. Free.
   * @throws AppError 404 when not the user's; 400 while generating or for an index it does not have.
   */
  async swipe(user: User, entryId: string, index: number): Promise<ChatHistoryEntry> {
    const entry = await this.idle(user, entryId);
    const chosen = await this.conversation.history.chooseSwipe(entry, index);
    if (!chosen) throw badRequest(msg("chat.replyNoSuchVersion"));
    await this.forget(user, chosen, chosen.seq, false);
    return this.present(chosen);
  }

  /**
   * POST /api/chat/edit: replaces the user's message (`part` "message", validated by the route
   * with the chat message's rules) or the reply's text (`part` "reply", the chosen swipe's
   * too). The content rules apply. The memory drawn from the entry on is drawn again.
   * @throws AppError 404 when not the user's; 400 while generating, for an entry with no message
   *   of the user's (a greeting, a further member's answer), or refused content.
   */
  async edit(
    user: User,
    entryId: string,
    part: "message" | "reply",
    text: string,
  ): Promise<ChatHistoryEntry> {
    const entry = await this.idle(user, entryId);
    if (part === "message") {
      if (!entry.message || entry.message === FIRST_MESSAGE_MARKER) {
        throw badRequest(msg("chat.entryNoMessageYoursEdit"));
      }
      assertAllowedContent(msg("conversation.term.message"), text);
    } else {
      assertAllowedContent(msg("chat.term.reply"), text);
    }
    const edited = await this.conversation.history.editEntry(
      entry,
      part === "message" ? { message: text } : { reply_message: text },
    );
    await this.forget(user, edited, edited.seq, part === "message");
    return this.present(edited);
  }

  /**
   * POST /api/chat/delete: removes the entry (the message and its reply) with its files. A
   * generation of it still running is stopped first.
   * @returns the removed entry's id. @throws AppError 404 when not the user's.
   */
  async remove(user: User, entryId: string): Promise<string[]> {
    const entry = await this.owned(user, entryId);
    return this.removeEntries(user, entry.session_id, [entry]);
  }

  /**
   * POST /api/chat/rewind: removes every entry of the entry's chat after it (by order), with
   * their files; their running generations are stopped first. Nothing else is stopped.
   * @returns the removed ids, oldest first. @throws AppError 404 when not the user's.
   */
  async rewind(user: User, entryId: string): Promise<string[]> {
    const entry = await this.owned(user, entryId);
    const after = await this.conversation.history.entriesAfter(entry.session_id, entry.seq);
    return this.removeEntries(user, entry.session_id, after);
  }

  private async removeEntries(user: User, sessionId: string, entries: ChatHistoryRow[]): Promise<string[]> {
    if (entries.length === 0) return [];
    const session = await this.conversation.chats.sessionById(sessionId);
    if (!session || session.user_id !== user.id) throw notFound(msg("chat.messageNotFound"));
    // A generation runs on a pending entry, or (a regeneration, a continuation) on a member's
    // newest: those are stopped before they go.
    const newestOfEach = new Map(entries.map((e) => [e.character_id, e.id]));
    for (const entry of entries) {
      if (entry.status === "pending" || newestOfEach.get(entry.character_id) === entry.id) {
        await this.chat.live.stop(entry.id);
      }
    }
    const ids = entries.map((e) => e.id);
    await this.conversation.history.removeEntries(sessionId, ids);
    // product.md §3: the chat's pictures and the user's photos live under {character or group id}/;
    // spoken audio (/content/voice/<hash>.mp3) is shared by every reply with the same words: kept.
    for (const entry of entries) {
      if (entry.message_image)
        await this.storage.remove(`${session.chat_key}/user_photo/${entry.message_image}`);
      if (entry.reply_image) await this.storage.remove(`${session.chat_key}/${entry.reply_image}`);
    }
    await this.forget(user, entries[0]!, Math.min(...entries.map((e) => e.seq)), true);
    return ids;
  }

  /** The user's entry. @throws AppError 404 "Message not found." */
  private async owned(user: User, entryId: string): Promise<ChatHistoryRow> {
    const entry = await this.conversation.history.findOwnedEntry(user, entryId);
    if (!entry) throw notFound(msg("chat.messageNotFound"));
    return entry;
  }

  /** The user's entry when no reply of it is being generated. @throws 404, 400 as `owned`, `stillGenerating`. */
  private async idle(user: User, entryId: string): Promise<ChatHistoryRow> {
    const entry = await this.owned(user, entryId);
    if (entry.status === "pending" || (await this.chat.live.isRunning(entry.id))) throw stillGenerating();
    return entry;
  }

  /** Tells memory that the chat's entries from `fromSeq` on changed (the summary; with `facts`, the facts). */
  private forget(user: User, entry: ChatHistoryRow, fromSeq: number, facts: boolean): Promise<void> {
    return this.memory.forgetFrom({
      userId: user.id,
      userName: displayName(user),
      sessionId: entry.session_id,
      fromSeq,
      facts,
    });
  }

  /** The entry as the history shows it, with its swipes. */
  private async present(entry: ChatHistoryRow): Promise<ChatHistoryEntry> {
    const swipes = await this.conversation.history.swipesOf([entry]);
    return presentHistoryEntry(entry, swipes.get(entry.id));
  }
}
