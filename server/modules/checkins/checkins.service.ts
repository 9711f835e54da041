// "Characters that write first": the scheduled job that sends a check-in after a quiet period, in the user's waking hours (09:00-21:00).
import type { UnreadCheckins } from "../../../common/api";
import type { Character, User } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";
import { msg } from "../../i18n/messages";
import type { LlmProvider } from "../../providers/llm/llm";
import type { ChatsService } from "../conversation/chats.service";
import { newHistoryEntry } from "../conversation/history.repo";
import { buildSystemPrompt, cleanReply, stopStrings } from "../prompt/prompt";
import type { CheckinsRepo, DueChat } from "./checkins.repo";

/** The user's waking hours, local time: check-ins are sent from 09:00 until 21:00. */
export const WAKING_HOURS = { from: 9, until: 21 } as const;
/** Chats one run of the job looks at, at most (the due query's bound). */
export const CHECKINS_PER_RUN = 50;
/** How often the scheduled job runs ("checkins.send-due", server/container.ts). */
export const CHECKIN_JOB_MS = 5 * 60_000;
/** Steps by which the next waking hour is looked for (zones with half-hour offsets fit). */
const STEP_MS = 15 * 60_000;

/**
 * Whether `timeZone` is an IANA time zone name this runtime knows, as
 * `Intl.DateTimeFormat(undefined, { timeZone })` accepts it (e.g. "Europe/Berlin").
 */
export function isTimeZone(timeZone: string): boolean {
  if (!timeZone || timeZone.length > 64) return false;
  try {
    new Intl.DateTimeFormat(undefined, { timeZone });
    return true;
  } catch {
    return false;
  }
}

/** The hour (0-23) at `now` (epoch ms) in `timeZone`. */
export function localHour(now: number, timeZone: string): number {
  const hour = new Intl.DateTimeFormat("en-US", { timeZone, hour: "numeric", hourCycle: "h23" })
    .formatToParts(new Date(now))
    .find((part) => part.type === "hour")?.value;
  return Number(hour) % 24;
}

/** Whether `now` (epoch ms) lies in the user's waking hours (09:00-21:00 in `timeZone`). */
export function isAwake(now: number, timeZone: string): boolean {
  const hour = localHour(now, timeZone);
  return hour >= WAKING_HOURS.from && hour < WAKING_HOURS.until;
}

/**
 * The first moment at or after `now` (epoch ms, in STEP_MS steps, so at most 15 minutes late)
 * that lies in the user's waking hours in `timeZone`.
 */
export function nextWakingTime(now: number, timeZone: string): number {
  let at = now;
  for (let i = 0; i < (24 * 3_600_000) / STEP_MS + 1; i++) {
    if (isAwake(at, timeZone)) return at;
    at = (Math.floor(at / STEP_MS) + 1) * STEP_MS;
  }
  return at;
}

/** The chat's check-in state (ours, GET /api/chat/checkins). */
export interface CheckinState {
  enabled: boolean;
  timeZone: string;
  characterName: string;
}

export interface CheckinsOptions {
  /** CHECKIN_QUIET_HOURS: hours since the chat's last message before a check-in. */
  quietHours: number;
  /** Upper bound of a check-in's length, in tokens (LLM_MAX_TOKENS). */
  maxReplyTokens: number;
  temperature: number;
}

/**
 * Characters that write first. The user lets a character write first, per character
 * (a one-to-one chat); a scheduled job (never a request) then sends one check-in in a chat whose
 * last message is `quietHours` old, in the user's waking hours (09:00-21:00 in the time zone
 * their browser sent), drawn by the model from the character's system prompt and what it
 * remembers about the user. At most one unanswered check-in per chat (any later entry of the
 * chat answers it); not counted against the quota; stored as a history entry with an empty user
 * message (the reply alone, like the greeting), counted unread until the chat is opened.
 */
export class CheckinsService {
  constructor(
    private readonly repo: CheckinsRepo,
    private readonly conversation: Pick<ChatsService, "findOwnedCharacter" | "resolveChat">,
    private readonly llm: Pick<LlmProvider, "status" | "generate">,
    /** The facts the character remembers about the user (the memory module's port), newest first. */
    private readonly facts: (userId: string, characterId: string) => Promise<string[]>,
    private readonly options: CheckinsOptions,
    private readonly now: () => number = Date.now,
    private readonly logError: (error: unknown) => void = () => {},
    /**
     * Recall (the memory module's port): earlier messages of the chat that match the user's last
     * words, as lines for the check-in's prompt; none when absent.
     */
    private readonly recalled: (chat: DueChat, userName: string) => Promise<string[]> = async () => [],
  ) {}

  /**
   * The check-in state of one of the user's characters (off with an empty zone until chosen).
   * @throws AppError 404 when `characterId` is not one of the user's characters.
   */
  async state(user: User, characterId: string): Promise<CheckinState> {
    const character = await this.ownCharacter(user, characterId);
    const setting = await this.repo.setting(user.id, characterId);
    return {
      enabled: setting?.enabled ?? false,
      timeZone: setting?.timeZone ?? "",
      characterName: character.name,
    };
  }

  /**
   * Lets the character write first (`enabled`) or stops it, storing the user's IANA `timeZone`.
   * @throws AppError 404 when `characterId` is not one of the user's characters (a group id
   *   included: check-ins are for one-to-one chats); 400 for an unknown time zone; 409
   *   `checkins_no_model` for turning them on while no language model is ready (no check-in
   *   could be written; turning them off is always allowed).
   */
  async choose(user: User, characterId: string, enabled: boolean, timeZone: string): Promise<CheckinState> {
    const character = await this.ownCharacter(user, characterId);
    if (!isTimeZone(timeZone)) throw badRequest(msg("checkins.timezoneIanaTimeZoneName"));
    if (enabled && !this.llm.status().ready) {
      throw new AppError("checkins_no_model", msg("checkins.charactersCannotWriteFirstWhile"));
    }
    await this.repo.save(user.id, characterId, enabled, timeZone, this.now());
    return { enabled, timeZone, characterName: character.name };
  }

  /** The user's characters with unread check-ins (the characters list's badge). */
  async unread(user: User): Promise<UnreadCheckins[]> {
    const counts = await this.repo.unreadOf(user.id);
    return [...counts].map(([characterUUID, unreadCheckins]) => ({ characterUUID, unreadCheckins }));
  }

  /**
   * Clears the unread check-ins of a chat the user opened: `chatId` a character id, or empty for
   * the chat the user had last. Ids that are not the user's change nothing.
   */
  async markRead(user: User, chatId: string): Promise<void> {
    const characterId = chatId || (await this.conversation.resolveChat(user, "")).chatKey;
    await this.repo.markRead(user.id, characterId);
  }

  /**
   * The scheduled job: sends the check-ins due now. One bounded query finds the chats (opted
   * in, of a user who is not blocked, quiet for `quietHours`, no unanswered check-in); a chat outside the user's waking hours
   * is put off until their next 09:00. Nothing when no model is ready. Safe when two runs
   * overlap: a check-in is stored once per chat and quiet period. A chat whose model call fails
   * is logged and tried again on the next run.
   * @param now the moment of the run (epoch ms; default the service's clock; tests shift it).
   * @returns the check-ins sent.
   */
  async sendDue(now: number = this.now()): Promise<number> {
    if (!this.llm.status().ready) return 0;
    const cutoff = now - this.options.quietHours * 3_600_000;
    const due = await this.repo.due(now, cutoff, CHECKINS_PER_RUN);
    let sent = 0;
    for (const chat of due) {
      if (!isTimeZone(chat.timeZone)) continue;
      if (!isAwake(now, chat.timeZone)) {
        await this.repo.postpone(chat.userId, chat.characterId, nextWakingTime(now, chat.timeZone));
        continue;
      }
      try {
        if (await this.checkIn(chat, now)) sent += 1;
      } catch (error) {
        this.logError(error);
      }
    }
    return sent;
  }

  /** Asks the model for one check-in and stores it (once per quiet period). @returns whether stored. */
  private async checkIn(chat: DueChat, now: number): Promise<boolean> {
    const userName = chat.fullName.trim() || chat.userName.trim() || "friend";
    const name = chat.characterName;
    const facts = await this.facts(chat.userId, chat.characterId);
    const system = buildSystemPrompt({
      card: {
        name,
        sex: chat.sex,
        backstory: chat.description,
        appearance: chat.appearance,
        greeting: chat.greeting,
        language: chat.language,
      },
      userName,
      summary: chat.summary,
      facts,
      uncensored: Boolean(chat.uncensored),
    });
    const about =
      facts.length > 0
        ? `ask about something ${userName} mentioned, from what ${name} remembers about them`
        : `ask how ${userName} is doing`;
    const recalled = await this.recalled(chat, userName);
    const background = recalled.length > 0 ? `\n\n[${recalled.join("\n")}]` : "";
    const instruction = `(${userName} has not written for a while. Write ${name}'s one short message that checks in on ${userName} first: ${about}. Write only the message.)${background}`;
    const result = await this.llm.generate({
      messages: [
        { role: "system", content: system },
        { role: "user", content: instruction },
      ],
      maxTokens: this.options.maxReplyTokens,
      temperature: this.options.temperature,
      stop: stopStrings(userName),
      background: true,
    });
    const text = cleanReply(result.text, name, userName);
    if (!text) return false;
    const entry = {
      ...newHistoryEntry(chat.sessionId, chat.characterId, "", now),
      reply_message: text,
      reply_time: now,
      status: "replied",
    };
    return this.repo.storeOnce(entry, {
      userId: chat.userId,
      characterId: chat.characterId,
      quietSince: chat.lastAt,
      now,
    });
  }

  private async ownCharacter(user: User, characterId: string): Promise<Character> {
    const character = characterId ? await this.conversation.findOwnedCharacter(user, characterId) : undefined;
    if (!character) throw notFound(msg("characters.characterNotFound"));
    return character;
  }
}
