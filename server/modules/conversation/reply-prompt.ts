// The prompt of a character's next reply: the chat's state read from the conversation, laid out by the prompt module.
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import { AUTHORS_NOTE_DEFAULT_DEPTH } from "../../../common/generation";
import type { PromptInspection } from "../../../common/prompt-inspection";
import type { Character, ChatHistoryRow, ChatSession, User } from "../../db/schema";
import type { ChatMessage } from "../../providers/llm/llm";
import { storedLorebook } from "../prompt/lorebook";
import {
  buildChatPrompt,
  type RecallFound,
  type RememberedFacts,
  recallBudget,
  type SenderContext,
  stopStrings,
} from "../prompt/prompt";
import { displayName, type ResolvedChat } from "./chats.service";
import type { Conversation } from "./conversation";

/** What recall is asked for one reply (the recall module's RecallService.find takes it as it is). */
export interface RecallQuery {
  session: ChatSession;
  /** The user's newest words. */
  newMessage: string;
  /** The recent exchanges' texts, newest first. */
  recent: string[];
  /** The chat's speakers: the user's name, each member's id and name. */
  speakers: { user: string; characters: Array<{ id: string; name: string }> };
}

/** Exchanges before the newest whose words may fill a short message's recall query. */
const RECALL_RECENT_EXCHANGES = 2;
/**
 * A chat read whole (no summary point, fewer exchanges than the history limit) with at most this
 * many exchanges has nothing earlier to recall: recall is not asked (a new chat's first messages
 * would pay its queries for nothing).
 */
const RECALL_MIN_EXCHANGES = 4;

/** What a prompt for a character's reply is built with (the model's budget). */
export interface PromptModel {
  contextWindow(): number;
  countTokens(text: string): number;
}

/**
 * The prompt of `character`'s next reply (product.md §4): the chat's state (card, lorebook, summary,
 * the newest `historyLimit` exchanges after the summary, the other members' names, what the
 * character remembers, the sender's words) laid out by the prompt module
 * (server/modules/prompt/prompt.ts: stable part first, the turn's note last).
 * @param input.facts what the character remembers, given the user's last words and the chat
 *   session (its summary point splits settled facts from recent ones).
 * @param input.lastUserMessage replaces the newest exchange's user words (a photo's note).
 * @returns the messages, the stop strings, how many exchanges were read (`exchanges`), the
 *   exchanges read (`window`: order key and user's words, oldest first), how many of the
 *   newest of them the prompt carries (`kept`; old ones are dropped in chunks when the window
 *   is full) and how many stay after the next chunk drops (`keptAfterNextDrop`), the key
 *   of the model's prompt cache for this chat and character (`cacheKey`), and what the prompt
 *   is made of (`inspection`, the prompt inspector's).
 */
export async function replyPrompt(
  conversation: Conversation,
  input: {
    user: User;
    chat: ResolvedChat;
    session: ChatSession;
    character: Character;
    historyLimit: number;
    model: PromptModel;
    replyTokens: number;
    facts?: (lastUserMessage: string, session: ChatSession) => Promise<RememberedFacts>;
    /** Recall (the recall module's find): earlier messages of the chat for this reply. */
    recall?: (query: RecallQuery) => Promise<RecallFound>;
    lastUserMessage?: string;
    /** The sender's name, words about themself and local time for this reply (product.md §7 pname, ptext, time). */
    sender?: SenderContext;
    /**
     * Regenerate: the entry whose reply is written anew. The prompt ends with it as
     * it was before it was answered: its reply and every later entry are left out.
     */
    regenerating?: Pick<ChatHistoryRow, "id" | "seq">;
  },
): Promise<{
  messages: ChatMessage[];
  stop: string[];
  others: string[];
  exchanges: number;
  window: Array<{ seq: number; message: string }>;
  kept: number;
  keptAfterNextDrop: number;
  cacheKey: string;
  inspection: PromptInspection;
}> {
  const { user, chat, session, character } = input;
  // The stable part names the user by the profile; `pname` is the turn note's (prompt.ts).
  const profileName = displayName(user);
  const userName = input.sender?.name || profileName;
  const others = chat.groupId ? chat.members.filter((m) => m.id !== character.id).map((m) => m.name) : [];
  const names = new Map(chat.members.map((m) => [m.id, m.name]));
  // A member that joined a group later knows only what was said since it joined
  // (seq is the send time in microseconds, server/modules/conversation/history.repo.ts).
  const since = (chat.memberSince?.get(character.id) ?? 0) * 1000;
  const read = await conversation.history.promptHistory(session, input.historyLimit);
  const anew = input.regenerating;
  const upTo = anew
    ? read.filter((h) => h.seq <= anew.seq).map((h) => (h.id === anew.id ? { ...h, reply_message: "" } : h))
    : read;
  const history = since > 0 ? upTo.filter((h) => h.seq >= since) : upTo;
  const lastWords = [...history].reverse().find((h) => h.message && h.message !== FIRST_MESSAGE_MARKER);
  const recent = history
    .slice(-1 - RECALL_RECENT_EXCHANGES, -1)
    .reverse()
    .flatMap((h) => [h.reply_message, h.message !== FIRST_MESSAGE_MARKER ? h.message : ""]);
  const wholeAndShort =
    session.summary_until_seq === 0 &&
    read.length < input.historyLimit &&
    read.length <= RECALL_MIN_EXCHANGES;
  const [facts, found] = await Promise.all([
    input.facts ? input.facts(lastWords?.message ?? "", session) : undefined,
    wholeAndShort
      ? undefined
      : input.recall?.({
          session,
          newMessage: input.lastUserMessage ?? lastWords?.message ?? "",
          recent,
          speakers: { user: profileName, characters: chat.members.map((m) => ({ id: m.id, name: m.name })) },
        }),
  ]);
  const userWords = (h: (typeof history)[number], index: number) =>
    input.lastUserMessage !== undefined && index === history.length - 1 ? input.lastUserMessage : h.message;
  const prompt = buildChatPrompt({
    character: {
      name: character.name,
      sex: character.sex,
      backstory: character.description,
      appearance: character.appearance,
      greeting: character.greeting,
      language: await conversation.chats.languageName(character.language_id),
    },
    userName: profileName,
    sender: input.sender,
    summary: session.summary,
    history: history.map((h, index) => ({
      id: h.id,
      userMessage: userWords(h, index),
      // A reply being continued is sent as the assistant's last, unfinished message.
      reply: h.reply_message,
      speaker: chat.groupId ? names.get(h.character_id) : undefined,
    })),
    contextWindow: input.model.contextWindow(),
    replyTokens: input.replyTokens,
    countTokens: (t) => input.model.countTokens(t),
    otherMembers: others,
    facts,
    uncensored: Boolean(user.uncensored),
    lorebook: storedLorebook(character.lorebook),
    // The character's author's note (product.md §2 "Generation"); blank: none (prompt.ts).
    authorsNote: {
      text: character.authors_note,
      depth: character.authors_note_depth ?? AUTHORS_NOTE_DEFAULT_DEPTH,
    },
    recall: found && {
      found,
      budget: recallBudget(input.model.contextWindow()),
      speaker: (m) => (m.side === "user" ? profileName : (names.get(m.characterId) ?? character.name)),
    },
  });
  return {
    messages: prompt.messages,
    stop: stopStrings(userName, others, profileName),
    others,
    exchanges: history.length,
    window: history.map((h) => ({ seq: h.seq, message: h.message })),
    kept: prompt.kept,
    keptAfterNextDrop: prompt.keptAfterNextDrop,
    // One cache per chat and character: a group's members each have their own system prompt.
    cacheKey: `chat:${session.id}:${character.id}`,
    inspection: prompt.inspection,
  };
}
