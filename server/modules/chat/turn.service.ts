// What one user message sets off (product.md §4 "Sending"): the reply, streamed or not, its speech and its picture.
import type { MessageReply } from "../../../common/api";
import { FIRST_MESSAGE_MARKER } from "../../../common/constants";
import { LISTENING_PLACEHOLDER } from "../../../common/speech";
import type { SentenceAudio, StreamEmit } from "../../../common/stream-events";
import type { ChatHistoryRow, User } from "../../db/schema";
import { AppError } from "../../errors";
import { carried, carry, msg } from "../../i18n/messages";
import type { Conversation } from "../conversation/conversation";
import { presentHistoryEntry } from "../conversation/conversation.presenter";
import { presentGroupReply, presentReply, withPicture } from "./chat.presenter";
import type { ChatService, SendInput, SendResult } from "./chat.service";

/** What a turn needs of voice, a port the composition root fills with the voice service. */
export interface ReplyVoice {
  /** Speaks a stored reply and records its audio on the entry; "" when it cannot (never throws). */
  replyAudio(user: User, entry: ChatHistoryRow | undefined): Promise<string>;
  /**
   * product.md §4 "Split replies": each part's own audio in the entry's voice, one per part ("" for a
   * part with nothing to say); [] when it cannot (never throws).
   */
  partsAudio(user: User, entry: ChatHistoryRow | undefined, parts: string[]): Promise<string[]>;
  /** Speaks a reply sentence by sentence while it streams: `start`, `push` each token, `finish`. */
  replySpeaker(
    user: User,
    onAudio: (audio: SentenceAudio) => void,
  ): {
    start(entry: ChatHistoryRow): void;
    push(text: string): void;
    finish(entry: ChatHistoryRow | undefined): Promise<string>;
  };
}

/** What a turn needs of pictures (genimage), a port filled with the images service. */
export interface PictureOffer {
  /**
   * Starts the picture a text reply carries when the user asked for one in words (or the reply
   * sends one as an action). @returns its description and the entry (loading 1), or undefined.
   */
  offerForReply(
    user: User,
    userMessage: string,
    entry: ChatHistoryRow,
  ): Promise<{ picDesc: string; entry: ChatHistoryRow } | undefined>;
}

/**
 * The events a streamed turn sends (common/stream-events.ts): the stored entry, tokens, spoken
 * sentences, each with its own data. Its end (`done`, `error`) is the route's (reply-stream.ts).
 */
export type TurnEmit = StreamEmit<"entry" | "token" | "audio">;

/** Where a streamed turn's events go (the client, and the entry's live reply). */
export interface TurnStream {
  /**
   * Called once the entry is stored (or, for a continuation, checked to be the user's) and before
   * its first event: opens its live reply. `fresh` is false for a continuation.
   */
  attach(entry: ChatHistoryRow, fresh: boolean): Promise<void>;
  emit: TurnEmit;
}

/**
 * Where a streamed group turn's events go: as TurnStream for each member in turn
 * (`attach` as it starts), and `settle` with that member's own reply once it is over (the end of
 * its entry's live reply).
 */
export interface GroupTurnStream extends TurnStream {
  settle(reply: MessageReply): void;
}

/** A turn's answer (product.md §3 "Message reply") and the time spent in the model, milliseconds. */
export interface TurnAnswer {
  reply: MessageReply;
  modelMs: number;
}

/**
 * What one user message sets off (product.md §4 "Sending"): the character's reply
 * (streamed or not), its speech unless muted, and the picture it may carry. Routes are adapters
 * around it; voice and pictures are reached through ports, never imported.
 */
export class TurnService {
  constructor(
    private readonly chat: ChatService,
    private readonly conversation: Conversation,
    private readonly voice: ReplyVoice | undefined,
    private readonly pictures: PictureOffer | undefined,
    private readonly log: (error: unknown) => void = () => {},
  ) {}

  /**
   * POST /chat/message: sends the message and answers with the reply, spoken when `speak`, with
   * a picture when one was asked for. With `stream` the reply streams (`entry`, `token`, `audio`).
   * @throws as ChatService.sendMessage.
   */
  async send(user: User, input: SendInput & { speak: boolean }, stream?: TurnStream): Promise<TurnAnswer> {
    const { speak, ...send } = input;
    const voice = speak ? this.voice : undefined;
    if (!stream) {
      const result = await this.chat.sendMessage(user, send);
      return this.answer(user, send, result, voice ? await voice.replyAudio(user, result.entry) : "", voice);
    }
    // Each sentence is spoken as soon as it is written: event `audio` (SentenceAudio).
    const speaker = voice?.replySpeaker(user, (audio) => stream.emit("audio", audio));
    const result = await this.chat.sendMessage(user, {
      ...send,
      onStored: async (entry) => {
        await stream.attach(entry, true);
        stream.emit("entry", presentHistoryEntry(entry));
        speaker?.start(entry);
      },
      onToken: (text) => {
        stream.emit("token", { text });
        speaker?.push(text);
      },
    });
    return this.answer(user, send, result, speaker ? await speaker.finish(result.entry) : "", voice);
  }

  /**
   * A sent message's answer: the reply with its audio (`audioUrl`, "" when unspoken), each split
   * part's audio when `voice` speaks, and the picture the reply may carry.
   */
  private async answer(
    user: User,
    input: SendInput,
    result: SendResult,
    audioUrl: string,
    voice: ReplyVoice | undefined,
  ): Promise<TurnAnswer> {
    const reply = await this.withPartsAudio(presentReply(result, audioUrl), voice, user, result.entry);
    return {
      reply: await this.offerPicture(reply, user, input.message, result.entry),
      modelMs: result.modelMs,
    };
  }

  /**
   * POST /chat/continue-message. With `stream` it streams: `entry` (the entry as it stood, its
   * reply so far), then `token`s of the added text. @throws as ChatService.continueReply.
   */
  async continueReply(user: User, entryId: string, stream?: TurnStream): Promise<TurnAnswer> {
    const result = await this.chat.continueReply(
      user,
      entryId,
      stream && {
        onStart: async (entry) => {
          await stream.attach(entry, false);
          stream.emit("entry", presentHistoryEntry(entry));
        },
        onToken: (text) => stream.emit("token", { text }),
      },
    );
    return { reply: presentReply(result), modelMs: result.modelMs };
  }

  /**
   * POST /chat/group/reply: the group's answers, each spoken in its member's voice
   * (chatHistoryReplyAudioUrl) unless muted. Each member's entry may carry a picture,
   * offered once per entry with the single chat's rules (il, an image engine, the quota, the
   * content rules; `offerForReply`): its entry comes back with chatHistoryImageLoading 1 and the
   * answer with genimage 1 when any entry does. With `stream` each member's reply
   * streams in turn order: `entry` (its stored entry), `token`s, `audio` per spoken sentence
   * (SentenceAudio, its entry's chatHistoryUUID) unless muted; the answer is the same as without.
   * @throws as ChatService.groupReply.
   */
  async groupReply(
    user: User,
    input: { message: string; chatId: string; clientMessageId?: string; speak: boolean },
    stream?: GroupTurnStream,
  ) {
    const { speak, ...turn } = input;
    const voice = speak ? this.voice : undefined;
    let speaker: ReturnType<ReplyVoice["replySpeaker"]> | undefined;
    const result = await this.chat.groupReply(
      user,
      turn,
      stream && {
        onStart: async (entry) => {
          await stream.attach(entry, true);
          stream.emit("entry", presentHistoryEntry(entry));
          speaker = voice?.replySpeaker(user, (audio) => stream.emit("audio", audio));
          speaker?.start(entry);
        },
        onToken: (text) => {
          stream.emit("token", { text });
          speaker?.push(text);
        },
        onReplied: async (member) => {
          const audioUrl = speaker ? await speaker.finish(member.entry) : "";
          speaker = undefined;
          stream.settle(presentReply(member, audioUrl));
        },
      },
    );
    if (voice && !stream) {
      for (const entry of result.entries) await voice.replyAudio(user, entry);
    }
    let genimage: 0 | 1 = 0;
    const entries: ChatHistoryRow[] = [];
    for (const entry of result.entries) {
      const picture = result.success ? await this.pictureFor(user, input.message, entry) : undefined;
      if (picture) genimage = 1;
      entries.push(picture?.entry ?? entry);
    }
    const reply = presentGroupReply({ ...result, entries });
    return { reply: carry({ ...reply, genimage }, carried(reply) ?? reply.message), modelMs: result.modelMs };
  }

  /**
   * The audio-message call (product.md §7, path ours: POST /api/chat/audio-message). With
   * `isGreeting`, nothing is sent: the newest greeting of the chat (by `characterId`, else any)
   * is answered with its audio. Otherwise the message (spoken in voice chat; empty means
   * 'listening', product.md §5) is sent like `chat/message` and the reply comes with its audio.
   * `mute` answers without audio.
   * @throws as ChatService.sendMessage; AppError 404 when there is no greeting.
   */
  async audioMessage(
    user: User,
    input: { message: string; chatId: string; characterId: string; isGreeting: boolean; mute: boolean },
  ): Promise<TurnAnswer> {
    let result: SendResult;
    if (input.isGreeting) {
      const greeting = await this.newestGreeting(user, input.chatId, input.characterId);
      if (!greeting) throw new AppError("not_found", msg("chat.chatNoGreeting"));
      result = { success: true, message: msg("chat.greeting"), entry: greeting, modelMs: 0 };
    } else {
      result = await this.chat.sendMessage(user, {
        message: input.message.trim() || LISTENING_PLACEHOLDER,
        chatId: input.chatId,
        characterId: input.characterId,
      });
    }
    const audioUrl =
      input.mute || !result.success || !this.voice
        ? ""
        : result.entry?.reply_audio_url || (await this.voice.replyAudio(user, result.entry));
    return { reply: presentReply(result, audioUrl), modelMs: result.modelMs };
  }

  /**
   * The newest greeting (##first-message##) of the chat, of `characterId` when given, looked for
   * page by page from the newest entry (never only in the newest 100).
   * @throws as Conversation.historyPage.
   */
  private async newestGreeting(
    user: User,
    chatId: string,
    characterId: string,
  ): Promise<ChatHistoryRow | undefined> {
    const pageSize = 100;
    for (let offset = 0; ; offset += pageSize) {
      const rows = await this.conversation.history.historyPage(user, chatId, offset, pageSize);
      const greeting = rows
        .filter((r) => r.message === FIRST_MESSAGE_MARKER && (!characterId || r.character_id === characterId))
        .at(-1);
      if (greeting || rows.length < pageSize) return greeting;
    }
  }

  /**
   * A split reply with each part's own audio (product.md §4 "Split replies": the parts are heard in turn;
   * ours: options.splitAudioUrls), when it is spoken (`voice`) and split in two or more parts.
   */
  private async withPartsAudio(
    reply: MessageReply,
    voice: ReplyVoice | undefined,
    user: User,
    entry: ChatHistoryRow | undefined,
  ): Promise<MessageReply> {
    const options = reply.options;
    if (!voice || !options || options.splitCount < 2 || !reply.audioUrl) return reply;
    const urls = await voice.partsAudio(user, entry, options.splitMessages);
    return urls.length === options.splitMessages.length
      ? carry({ ...reply, options: { ...options, splitAudioUrls: urls } }, carried(reply) ?? reply.message)
      : reply;
  }

  /** The reply with the picture the user asked for; a failure of the offer leaves it text only. */
  private async offerPicture(
    reply: MessageReply,
    user: User,
    userMessage: string,
    entry: ChatHistoryRow | undefined,
  ): Promise<MessageReply> {
    if (!entry || reply.success !== 1) return reply;
    return withPicture(reply, await this.pictureFor(user, userMessage, entry));
  }

  /** The picture offered for one reply entry, or undefined (no port, nothing asked, a failure: logged). */
  private async pictureFor(
    user: User,
    userMessage: string,
    entry: ChatHistoryRow,
  ): Promise<{ picDesc: string; entry: ChatHistoryRow } | undefined> {
    if (!this.pictures) return undefined;
    try {
      return await this.pictures.offerForReply(user, userMessage, entry);
    } catch (error) {
      this.log(error);
      return undefined;
    }
  }
}
