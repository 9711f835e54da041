// Picture routes (product.md §7): chat/request-photo, chat/image, chat/photo-process and chat/history/photos.
import type { FastifyInstance, onRequestAsyncHookHandler } from "fastify";
import { envelopeOf, ImageReply, MessageReply, PhotoHistoryEntry, PhotoReply } from "../../../common/api";
import type { ChatHistoryRow, User } from "../../db/schema";
import { assertSelf, currentUser, signedIn } from "../../http/auth";
import { ok, okWith } from "../../http/envelope";
import { GET_WRITES } from "../../http/route-writes";
import { carry, english, msg } from "../../i18n/messages";
import type { Conversation } from "../conversation/conversation";
import { presentHistoryEntry } from "../conversation/conversation.presenter";
import { isMuted } from "../conversation/inputs";
import { photoType } from "./image-prompt";
import { presentPhoto, presentPictureReply } from "./images.presenter";
import { ImageBody, imagesDoc, PhotoBody, PhotosQuery, RequestPhotoBody } from "./images.schemas";
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
    const requestPhoto = {
      ...imagesDoc("`MessageReply` with `genimage: 1`; the picture follows", "§7", MessageReply),
      body: RequestPhotoBody,
    };
    app.post("/api/chat/request-photo", { schema: requestPhoto }, async (request) => {
      const { body } = request;
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
      return presentPictureReply(entry, picDesc, msg("images.pictureWay"), audioUrl);
    });

    app.post(
      "/api/chat/image",
      { schema: { ...imagesDoc("`image`, `history`", "§7", ImageReply), body: ImageBody } },
      async (request) => {
        const { body } = request;
        const { entry } = await images.imageForEntry(currentUser(request), {
          entryId: body.id,
          description: body.description || body.message || "",
          type: photoType(body.ratio),
        });
        const answer: ImageReply = okWith(
          entry.reply_image ? msg("images.picture") : msg("images.pictureWay"),
          { image: entry.reply_image, history: [presentHistoryEntry(entry)] },
        );
        return answer;
      },
    );

    const photoProcess = {
      ...imagesDoc("`photo`, `text`, `history`", "§7", PhotoReply),
      consumes: ["multipart/form-data"],
      body: PhotoBody,
    };
    app.post("/api/chat/photo-process", { schema: photoProcess }, async (request) => {
      const { body } = request;
      const result = await images.photoProcess(currentUser(request), {
        chatId: body.id,
        characterId: body.cid || body.cId,
        photo: body.photo,
        message: body.message,
        clientMessageId: body.clientMessageId,
      });
      const answer: PhotoReply = carry(
        {
          success: result.success ? 1 : 0,
          message: english(result.message),
          photo: result.entry.message_image,
          text: result.entry.reply_message,
          history: [presentHistoryEntry(result.entry)],
        },
        result.message,
      );
      return answer;
    });

    // Creates the chat's session on first use (GET_WRITES).
    const photos = {
      ...imagesDoc("`data`: `PhotoHistoryEntry[]`", "§7", envelopeOf(PhotoHistoryEntry.array())),
      querystring: PhotosQuery,
    };
    app.get("/api/chat/history/photos", { config: GET_WRITES, schema: photos }, async (request) => {
      const user = currentUser(request);
      const { query } = request;
      assertSelf(user.id, query.uId);
      const { chat, rows } = await conversation.history.photoHistory(user, query.id);
      return ok(msg("images.photos"), {
        data: rows.map((row) => presentPhoto(row, chat.chatKey, Boolean(chat.groupId))),
      });
    });
  });
}
