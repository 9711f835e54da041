// Picture routes (product.md §7): chat/request-photo, chat/image, chat/photo-process and chat/history/photos.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import type { ChatHistoryRow, User } from "../../db/schema";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok } from "../../http/envelope";
import { GET_WRITES } from "../../http/route-writes";
import { parseInput } from "../../http/validate";
import type { Conversation } from "../conversation/conversation";
import { presentHistoryEntry } from "../conversation/conversation.presenter";
import { isMuted } from "../conversation/inputs";
import { photoType } from "./image-prompt";
import { presentPhoto, presentPictureReply } from "./images.presenter";
import { ImageBody, PhotoBody, PhotosQuery, RequestPhotoBody } from "./images.schemas";
import type { ImagesService } from "./images.service";

/** product.md §7: chat/request-photo, chat/image, chat/photo-process, chat/history/photos. */
export async function imagesRoutes(
  app: FastifyInstance,
  images: ImagesService,
  conversation: Conversation,
  auth: onRequestAsyncHookHandler,
  /** Speaks a stored reply (the voice module's `replyAudio`); "" when it cannot. Never throws. */
  speech?: { replyAudio(user: User, entry: ChatHistoryRow): Promise<string> },
): Promise<void> {
  await signedIn(app, auth, (app) => {
    app.post("/api/chat/request-photo", async (request) => {
      const body = parseInput(RequestPhotoBody, request.body);
      const user = currentUser(request);
      const { entry, picDesc } = await images.requestPhoto(user, {
        chatId: body.id,
        characterId: body.cid || body.cId,
        message: body.message,
        type: photoType(body.type),
        clientMessageId: body.clientMessageId,
      });
      // a picture reply is spoken like any reply unless muted (product.md §7 `mute`).
      const audioUrl = speech && !isMuted(body.mute) ? await speech.replyAudio(user, entry) : "";
      return presentPictureReply(entry, picDesc, "The picture is on its way.", audioUrl);
    });

    app.post("/api/chat/image", async (request) => {
      const body = parseInput(ImageBody, request.body);
      const { entry } = await images.imageForEntry(currentUser(request), {
        entryId: body.id,
        description: body.description || body.message || "",
        type: photoType(body.ratio),
      });
      const presented = presentHistoryEntry(entry);
      return {
        ...ok(entry.reply_image ? "Picture." : "The picture is on its way."),
        image: entry.reply_image,
        history: [presented],
      };
    });

    app.post("/api/chat/photo-process", async (request) => {
      const body = parseInput(PhotoBody, request.body);
      const result = await images.photoProcess(currentUser(request), {
        chatId: body.id,
        characterId: body.cid || body.cId,
        photo: body.photo,
        message: body.message,
        clientMessageId: body.clientMessageId,
      });
      return {
        success: result.success ? 1 : 0,
        message: result.message,
        photo: result.entry.message_image,
        text: result.entry.reply_message,
        history: [presentHistoryEntry(result.entry)],
      };
    });

    // Creates the chat's session on first use (GET_WRITES).
    app.get("/api/chat/history/photos", { config: GET_WRITES }, async (request) => {
      const user = currentUser(request);
      const query = parseInput(PhotosQuery, request.query);
      assertSelf(user.id, query.uId);
      const { chat, rows } = await conversation.history.photoHistory(user, query.id);
      return ok("Photos.", {
        data: rows.map((row) => presentPhoto(row, chat.chatKey, Boolean(chat.groupId))),
      });
    });
  });
}
