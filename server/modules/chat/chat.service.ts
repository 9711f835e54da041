// Characters' replies (product.md §4 "Sending"): a message, a group turn, a continuation, Stop and New Chat, charged to the quota.
import { CONTINUE_MAX_PER_REPLY, FIRST_MESSAGE_MARKER } from "../../../common/constants";
import type { ChatHistoryRow, User } from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { type Message, msg } from "../../i18n/messages";
import type { LlmProvider } from "../../providers/llm/llm";
import type { RedisHandle } from "../../providers/redis/redis";
import type { FileStorage } from "../../providers/storage/storage";
import { displayName } from "../conversation/chats.service";
import type { Conversation } from "../conversation/conversation";
import type { EntryCharge } from "../conversation/history.service";
import type { SenderContext } from "../prompt/prompt";
import type { QuotaService, Reservation } from "../quota/quota.service";
import type { ChatRepo } from "./chat.repo";
import { type LiveReplies, MemoryLiveReplies } from "./live-replies";
import { RedisLiveReplies } from "./live-replies.redis";
import { type ChatOptions, ReplyGenerator, type ReplyMemory, type SendResult } from "./reply-generator";
import { settleStalled } from "./stalled-replies";
import { chooseSpeakers } from "./turn-order";

export type { ChatOptions, ReplyMemory, SendResult } from "./reply-generator";

/** Talkativeness of every character until the card has its own (0..1). */
const DEFAULT_TALKATIVENESS = 0.5;

/** A user's message to a chat, as sending takes it (POST /chat/message, product.md §4 "Sending"). */
export interface SendInput {
  /** Trimmed, 1 to 150 characters (validated by the route). */
  message: string;
  chatId: string;
  /** The member who answers; "" for the chat's first member. */
  characterId: string;
  clientMessageId?: string;
  /** product.md §7 pname, ptext, time: the sender's name, words and local time for this reply. */
  sender?: SenderContext;
}

/** A group turn's outcome (product.md §7 `chat/group/reply`). */
export interface GroupResult {
  success: boolean;
  message: string | Message;
  /** Character ids in the order they answered. */
  whoReplies: string[];
  entries: ChatHistoryRow[];
  modelMs: number;
}

/**
 * Characters' replies (product.md §4 "Sending", 7 "Chat"): a message, a group turn, a continuation, Stop
 * and New Chat. A send is decided and charged here (one message of the quota); the user's entry
 * is stored by the conversation's history (its rules live there); this service runs the model
 * and stores what it wrote. Every id from the client is checked
 * against the signed-in user before anything is read or written.
 */
export class ChatService {
  constructor(
    private readonly repo: ChatRepo,
    /** The chats (which chat an id names, its session) and their history (the entries). */
    private readonly conversation: Conversation,
    /** Every send and every model run is charged one message first (continuations too). */
    private readonly quota: QuotaService,
    llm: LlmProvider,
    private readonly options: ChatOptions,
    private readonly memory: ReplyMemory,
    /** The content area: New Chat removes the chat's pictures and photos with its history. */
    private readonly storage: FileStorage,
    /**
     * Live replies and the registry of running generations, in memory or in Redis:
     * Stop, Continue and the settlement of stalled replies work across instances through it.
     */
    readonly live: LiveReplies,
    private readonly now: () => number = Date.now,
    private readonly random: () => number = Math.random,
  ) {
    this.replies = new ReplyGenerator({ repo, conversation, quota, llm, options, memory, live, now });
  }

  /**
   * The model runs: one reply generated and stored; its `claim` takes a further run's lease and
   * message (continuations here, regenerations in edits.service.ts).
   */
  readonly replies: ReplyGenerator;

  /**
   * The live replies of the configuration: in Redis when the cluster has one, else in
   * this process. @param onError logs a failed background write or read.
   */
  static liveReplies(redis: RedisHandle | undefined, onError?: (error: unknown) => void): LiveReplies {
    return redis ? new RedisLiveReplies(redis, { onError }) : new MemoryLiveReplies();
  }

  /**
   * Stores the user's message, then asks the model for the character's reply and stores it
   * (product.md §4 "Sending"). The message is kept even when the model fails.
   * @param input.message trimmed, 1 to 150 characters (validated by the route).
   * @param input.characterId the member who answers; defaults to the chat's first member.
   * @throws AppError 404 for a chat or character that is not the user's; 429 at the daily limit.
   */
  async sendMessage(
    user: User,
    input: SendInput & {
      /**
       * Called once the user's message is stored, before the model runs (streaming: opens the
       * live reply and tells the client the entry's id). A failure fails the reply.
       */
      onStored?: (entry: ChatHistoryRow) => void | Promise<void>;
      /** Called with each piece of the reply as it is generated (streaming). */
      onToken?: (text: string) => void;
    },
  ): Promise<SendResult> {
    const chat = await this.conversation.chats.resolveChat(user, input.chatId);
    const character = input.characterId
      ? chat.members.find((m) => m.id === input.characterId)
      : chat.members[0];
    if (!character) throw notFound(msg("chat.characterNotChat"));
    const stored = await this.conversation.history.appendUserEntry(
      user,
      chat,
      { characterId: character.id, message: input.message, clientMessageId: input.clientMessageId },
      this.messageCharge(user),
    );
    if ("repeated" in stored) return repeated(stored.repeated);
    return this.replies.run(user, chat, stored.session, character, stored.entry, {
      onStart: input.onStored,
      onToken: input.onToken,
      charge: stored.charge,
      sender: input.sender,
    });
  }

  /**
   * A group turn (product.md §7 `chat/group/reply`): stores the user's message, chooses who answers by the
   * turn order (named characters first, then by talkativeness, never the last speaker twice in a
   * row unaddressed, at most 3), and lets each answer in turn, seeing the replies before theirs.
   * The first answer fills the user's entry; each further answer is an entry of its own.
   * Streaming: `stream.onStart` runs as each member starts (its entry stored and its
   * lease held, so Stop reaches it), `onToken` gets that member's text, `onReplied` its outcome
   * (awaited before the next member starts). A member's reply stopped by the user (Stop) ends the
   * turn there: the members after it do not answer.
   * @throws AppError 404 for a chat that is not one of the user's groups; 429 at the daily limit.
   */
  async groupReply(
    user: User,
    input: { message: string; chatId: string; clientMessageId?: string },
    stream: {
      onStart?: (entry: ChatHistoryRow) => Promise<void>;
      onToken?: (text: string) => void;
      onReplied?: (result: SendResult) => Promise<void>;
    } = {},
  ): Promise<GroupResult> {
    const chat = await this.conversation.chats.resolveChat(user, input.chatId);
    if (!chat.groupId) throw notFound(msg("characters.groupNotFound"));
    if (chat.members.length === 0) throw badRequest(msg("chat.groupNoMembersYet"));
    const lastSpeaker = await this.repo.lastReplyCharacterId(chat.chatKey, user.id);
    const whoReplies = chooseSpeakers(
      input.message,
      chat.members.map((m) => ({ id: m.id, name: m.name, talkativeness: DEFAULT_TALKATIVENESS })),
      lastSpeaker,
      this.random,
    );
    const stored = await this.conversation.history.appendUserEntry(
      user,
      chat,
      { characterId: whoReplies[0]!, message: input.message, clientMessageId: input.clientMessageId },
      this.messageCharge(user),
    );
    if ("repeated" in stored) {
      const r = repeated(stored.repeated);
      return {
        success: r.success,
        message: r.message,
        whoReplies: [],
        entries: [stored.repeated],
        modelMs: 0,
      };
    }
    const entries: ChatHistoryRow[] = [];
    let modelMs = 0;
    for (const [turn, speakerId] of whoReplies.entries()) {
      const speaker = chat.members.find((m) => m.id === speakerId)!;
      const entry =
        turn === 0
          ? stored.entry
          : await this.conversation.history.appendReplyEntry(stored.session, speaker.id);
      // The message is charged once: only the first answer gives it back when it fails.
      const result = await this.replies.run(user, chat, stored.session, speaker, entry, {
        charge: turn === 0 ? stored.charge : undefined,
        onStart: stream.onStart,
        onToken: stream.onToken,
      });
      await stream.onReplied?.(result);
      modelMs += result.modelMs;
      if (result.entry) entries.push(result.entry);
      if (!result.success || result.entry?.status === "stopped") {
        return {
          success: result.success || turn > 0,
          message: result.message,
          whoReplies: whoReplies.slice(0, turn + 1),
          entries,
          modelMs,
        };
      }
    }
    return { success: true, message: msg("chat.replies"), whoReplies, entries, modelMs };
  }

  /**
   * The charge of a send (a message or a group turn): one message of the user's quota, taken
   * with the user's entry in its transaction, given back when the entry is not stored.
   */
  private messageCharge(user: User): EntryCharge<Reservation> {
    return {
      take: (now, db) => this.quota.chargeMessage(user, now, db),
      giveBack: (charge) => this.quota.refundMessage(user.id, charge),
    };
  }

  /**
   * Stops the generation of an entry's reply (the Stop button), on whichever instance runs it
   *. The partial reply is kept.
   * @returns false when nothing is being generated for it anywhere.
   * @throws AppError 404 when the entry is not the user's.
   */
  async stop(user: User, entryId: string): Promise<boolean> {
    const entry = await this.conversation.history.findOwnedEntry(user, entryId);
    if (!entry) throw notFound(msg("chat.messageNotFound"));
    return this.live.stop(entryId);
  }

  /**
   * One of the user's entries (the resume route asks before anything else).
   * @throws AppError 404 "Message not found." when the entry is not the user's.
   */
  async ownedEntry(user: User, entryId: string): Promise<ChatHistoryRow> {
    const entry = await this.conversation.history.findOwnedEntry(user, entryId);
    if (!entry) throw notFound(msg("chat.messageNotFound"));
    return entry;
  }

  /**
   * Continues the newest reply of a chat (product.md §7 `chat/continue-message`; payload ours: `id`, the
   * entry's chatHistoryUUID). The continuation is appended to the same entry. Every
   * model run is accounted, so a continuation counts as one message (given back when it adds
   * nothing), and one reply can be continued at most CONTINUE_MAX_PER_REPLY times. A
   * reply still being generated on any instance is not continued (its lease is taken first).
   * @param stream.onStart called once the run holds the entry (streaming: opens the live reply).
   * @throws AppError 404 when not the user's; 400 for a greeting (the card's words, not the
   *   chat's) or a picture reply, when it is not the newest reply, is still being generated, or was
   *   continued CONTINUE_MAX_PER_REPLY times; 429 "quota_reached" at the quota's limit (the model
   *   is not run).
   */
  async continueReply(
    user: User,
    entryId: string,
    stream: { onStart?: (entry: ChatHistoryRow) => Promise<void>; onToken?: (text: string) => void } = {},
  ): Promise<SendResult> {
    const entry = await this.conversation.history.findOwnedEntry(user, entryId);
    if (!entry) throw notFound(msg("chat.messageNotFound"));
    if (entry.message === FIRST_MESSAGE_MARKER) throw badRequest(msg("chat.greetingNotContinued"));
    if (isPictureReply(entry)) throw badRequest(msg("chat.pictureNotContinued"));
    if (!entry.reply_message) throw nothingToContinue();
    const session = await this.conversation.chats.sessionById(entry.session_id);
    const newest = await this.conversation.history.newestEntry(entry.session_id);
    if (!session || newest?.id !== entry.id) throw badRequest(msg("chat.onlyNewestReplyContinued"));
    const chat = await this.conversation.chats.resolveChat(user, session.chat_key);
    const character = chat.members.find((m) => m.id === entry.character_id);
    if (!character) throw notFound(msg("chat.characterNoLongerChat"));
    if (entry.continue_count >= CONTINUE_MAX_PER_REPLY) throw continuedEnough();
    const { hold, charge } = await this.replies.claim(user, entry.id, nothingToContinue, async () => {
      if (!(await this.repo.claimContinuation(entry.id, CONTINUE_MAX_PER_REPLY))) throw continuedEnough();
    });
    return this.replies.run(user, chat, session, character, entry, {
      ...stream,
      continueFrom: entry.reply_message,
      charge,
      hold,
    });
  }

  /**
   * Settles the replies left pending by an instance that died: see settleStalled in
   * stalled-replies.ts. Run periodically, once per cluster. @returns how many were settled.
   */
  settleStalledReplies(): Promise<number> {
    return settleStalled({
      repo: this.repo,
      live: this.live,
      quota: this.quota,
      now: this.now(),
      timeoutMs: this.options.timeoutMs,
    });
  }

  /**
   * New chat (product.md §4: "after confirmation the current history is deleted"): deletes the chat's
   * history and summary; long-term facts stay (they are deleted one by one in Settings).
   * @returns the page to open. @throws AppError 404 for a chat that is not the user's.
   */
  async newChat(user: User, chatId: string): Promise<string> {
    // Long-term facts outlive the history: those of messages not extracted yet are taken first.
    const session = await this.conversation.chats.session(
      user,
      await this.conversation.chats.resolveChat(user, chatId),
    );
    await this.memory.beforeClear({ userId: user.id, userName: displayName(user), sessionId: session.id });
    const chat = await this.conversation.history.clear(user, chatId);
    // product.md §3: the chat's pictures and the user's photos live under {character or group id}/.
    await this.storage.removeFolder(chat.chatKey);
    return `/character-select/${chat.chatKey}`;
  }
}

/** The answer to a send whose client id was seen before: the entry as it stands, no new work. */
function repeated(entry: ChatHistoryRow): SendResult {
  if (entry.status === "replied") return { success: true, message: msg("chat.reply"), entry, modelMs: 0 };
  if (entry.status === "pending") {
    return { success: false, message: msg("chat.messageStillBeingAnswered"), entry, modelMs: 0 };
  }
  return {
    success: false,
    message: msg("chat.messageCouldNotAnsweredSend"),
    entry,
    modelMs: 0,
  };
}

/**
 * Whether an entry's reply is a picture, made or being made (with or without words): neither
 * regenerated nor continued, as new words would sit under a picture they did not come with.
 */
export function isPictureReply(entry: Pick<ChatHistoryRow, "reply_image" | "image_loading">): boolean {
  return entry.reply_image !== "" || entry.image_loading === 1;
}

/** 400 for a reply that is not finished (none yet, or still being generated). */
const nothingToContinue = () => badRequest(msg("chat.thereNoFinishedReplyContinue"));

/** 400 past the bound of continuations of one reply. */
const continuedEnough = () => badRequest(msg("chat.replyCannotContinuedAnyMore"), "continue_limit");
