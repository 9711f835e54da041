// The composition root's builders of characters, the conversation, chat, voice, pictures and check-ins.
import type { CacheGroup } from "../db/short-cache";
import type { AppConfig } from "../env";
import type { JobQueue } from "../jobs/index";
import { CharactersRepo } from "../modules/characters/characters.repo";
import { CharactersService } from "../modules/characters/characters.service";
import { ChatRepo } from "../modules/chat/chat.repo";
import { ChatService } from "../modules/chat/chat.service";
import { EditsService } from "../modules/chat/edits.service";
import { GroupsService } from "../modules/chat/groups.service";
import { ChatImportService } from "../modules/chat/import.service";
import { InspectionsRepo } from "../modules/chat/inspections.repo";
import { InstanceLease } from "../modules/chat/instance-lease";
import { TurnService } from "../modules/chat/turn.service";
import { CheckinsRepo } from "../modules/checkins/checkins.repo";
import { CheckinsService } from "../modules/checkins/checkins.service";
import { ImageWorker } from "../modules/images/image-worker";
import { ImagesRepo } from "../modules/images/images.repo";
import { ImagesService } from "../modules/images/images.service";
import { MemoryRepo } from "../modules/memory/memory.repo";
import { MemoryService } from "../modules/memory/memory.service";
import { RecallRepo } from "../modules/memory/recall.repo";
import { RecallService } from "../modules/memory/recall.service";
import { RecallVectors } from "../modules/memory/recall-vectors";
import { recallBudget } from "../modules/prompt/prompt";
import { QuotaRepo } from "../modules/quota/quota.repo";
import { QuotaService } from "../modules/quota/quota.service";
import { SearchRepo } from "../modules/search/search.repo";
import { SearchService } from "../modules/search/search.service";
import { VoiceRepo } from "../modules/voice/voice.repo";
import { VoiceService } from "../modules/voice/voice.service";
import { createEmbedder } from "../providers/embeddings/index";
import { createImageProvider, parseSize } from "../providers/image/index";
import { createStt } from "../providers/stt/index";
import { createTts } from "../providers/tts/index";
import { createVision } from "../providers/vision/index";
import { openConversation } from "./conversation";
import type { ContainerDeps } from "./deps";

/** The model settings every reply of a character is asked with (LLM_MAX_TOKENS, LLM_TEMPERATURE, LLM_TIMEOUT_MS). */
function replySettings(config: AppConfig) {
  return {
    maxReplyTokens: config.LLM_MAX_TOKENS,
    temperature: config.LLM_TEMPERATURE,
    timeoutMs: config.LLM_TIMEOUT_MS,
  };
}

/**
 * Characters, memory, the quota, a conversation (its chats and their history), chat and voice.
 * @param caches the per-process caches of the chat path (server/db/short-cache.ts).
 * @returns the services, this process's lease (the owner of the entries it stores), and the
 *   embedding model of recall by meaning (null when EMBEDDING_* are unset, the default), which the
 *   caller closes at shutdown.
 * @throws Error "Invalid configuration:" from createEmbedder.
 */
export function buildChat(config: AppConfig, deps: ContainerDeps, jobs: JobQueue, caches: CacheGroup) {
  const { db, storage, llm, logError, redis } = deps;
  const kysely = db.db;
  const charactersRepo = new CharactersRepo(kysely);
  const tts = createTts(config);
  const characters = new CharactersService(
    charactersRepo,
    storage,
    llm,
    { preview: (voiceName) => voice.preview(voiceName) },
    // its updates and deletions drop the chat path's cached rows of the character (built below).
    {
      characterChanged: (userId, characterId) => conversation.chats.characterChanged(userId, characterId),
      chatRemoved: (userId, chatKey) => conversation.chats.chatRemoved(userId, chatKey),
    },
  );
  // Recall by meaning, when an embedding model is configured: fused with the word search.
  const embedder = createEmbedder(config);
  const vectors = embedder ? new RecallVectors(db, embedder) : undefined;
  const recall = new RecallService(new RecallRepo(db), undefined, vectors);
  const memory = new MemoryService(
    new MemoryRepo(kysely),
    llm,
    jobs,
    Date.now,
    logError,
    (sessionId) => conversation.chats.sessionChanged(sessionId),
    caches,
    recall,
    vectors,
  );
  const quota = new QuotaService(new QuotaRepo(kysely));
  // A conversation: its chats (which chat an id names, members, sessions) and their history
  // (the entries and their rules, swipes, edits).
  // This process's lease: the owner of the entries it stores (settled by another if it stops).
  const instanceLease = new InstanceLease(kysely, Date.now, logError);
  const conversation = openConversation(kysely, { caches, owner: instanceLease.id });
  const inspections = new InspectionsRepo(kysely);
  const chatRepo = new ChatRepo(kysely, inspections);
  const chat = new ChatService(
    chatRepo,
    conversation,
    quota,
    llm,
    replySettings(config),
    memory,
    storage,
    // live replies, Stop and the running generations in Redis when the cluster has one.
    ChatService.liveReplies(redis, logError),
  );
  const groups = new GroupsService(chatRepo, conversation);
  const voice = new VoiceService(
    tts,
    createStt(config),
    storage,
    new VoiceRepo(kysely),
    conversation,
    { maxRecordingBytes: config.STT_MAX_BYTES },
    logError,
  );
  return {
    tts,
    characters,
    memory,
    recall,
    quota,
    instanceLease,
    conversation,
    chat,
    groups,
    voice,
    embedder,
    /** "Import a SillyTavern chat". */
    chatImport: new ChatImportService(conversation, memory, storage),
    /** What each reply's prompt was made of (the prompt inspector's reads). */
    inspections,
    /** Searching the user's chats. */
    search: new SearchService(new SearchRepo(db)),
  };
}

/** What buildChat built. */
type Chat = ReturnType<typeof buildChat>;

/**
 * Pictures on request (durable jobs, run by the image worker) and photos from the user.
 * @returns the image service and its worker.
 */
export function buildImages(
  config: AppConfig,
  deps: ContainerDeps,
  chat: Pick<Chat, "quota" | "conversation">,
) {
  const { db, storage, llm, logError } = deps;
  const imagesRepo = new ImagesRepo(db.db);
  const imageProvider = createImageProvider(config);
  const imageWorker = new ImageWorker(imagesRepo, chat.quota, imageProvider, storage, {
    concurrency: config.IMAGE_CONCURRENCY,
    timeoutMs: config.IMAGE_TIMEOUT_MS,
    log: logError,
  });
  const images = new ImagesService(
    imagesRepo,
    chat.conversation,
    chat.quota,
    imageProvider,
    createVision(config),
    llm,
    storage,
    imageWorker,
    {
      portrait: parseSize(config.IMAGE_PORTRAIT_SIZE),
      landscape: parseSize(config.IMAGE_LANDSCAPE_SIZE),
      ...replySettings(config),
    },
  );
  return { images, imageWorker };
}

/**
 * What one message sets off (turns: the reply, its speech and the picture it may carry), the
 * changes to a history (edits: swipes, edits, deletes, rewinds) and the characters that write
 * first (check-ins after a quiet period, never on a request).
 */
export function buildTurns(
  config: AppConfig,
  deps: ContainerDeps,
  chat: Chat,
  images: ReturnType<typeof buildImages>["images"],
) {
  const { db, storage, llm, logError } = deps;
  const { conversation, voice, memory } = chat;
  const turns = new TurnService(chat.chat, conversation, voice, images, logError);
  // memory drawn from what changed is drawn again.
  const edits = new EditsService(chat.chat, conversation, memory, storage, voice);
  const checkins = new CheckinsService(
    new CheckinsRepo(db.db),
    conversation.chats,
    llm,
    async (userId, characterId) =>
      (await memory.listFacts(userId, characterId)).slice(0, 10).map((f) => f.fact),
    {
      quietHours: config.CHECKIN_QUIET_HOURS,
      maxReplyTokens: config.LLM_MAX_TOKENS,
      temperature: config.LLM_TEMPERATURE,
    },
    Date.now,
    logError,
    // Recall for a check-in: what the user last spoke of, from earlier in the chat (half recall's budget).
    (due, userName) =>
      chat.recall.checkInLines({
        sessionId: due.sessionId,
        speakers: { user: userName, characters: [{ id: due.characterId, name: due.characterName }] },
        budget: Math.floor(recallBudget(llm.contextWindow()) / 2),
        countTokens: (text) => llm.countTokens(text),
      }),
  );
  return { turns, edits, checkins };
}
