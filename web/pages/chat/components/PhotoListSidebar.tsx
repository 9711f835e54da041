// The right sidebar 'Photo List' (product.md §2): the chat's photos and generated pictures, each opening the gallery.
import { useState } from "react";
import { Spinner } from "../../../components/Spinner";
import { chatImageUrl } from "../../../lib/content";
import { useChatPhotos } from "../hooks/useChatPhotos";
import { imageTexts } from "../imageTexts";
import { IconButton } from "./IconButton";
import { PhotoGallery } from "./PhotoGallery";

/**
 * The right sidebar 'Photo List' (product.md §2): the chat's photos (the user's attachments and the
 * generated pictures), loaded with a spinner, each opening the gallery.
 */
export function PhotoListSidebar({
  userId,
  chatId,
  onClose,
}: {
  userId: string;
  chatId: string;
  onClose: () => void;
}) {
  const photos = useChatPhotos(userId, chatId, true);
  const [opened, setOpened] = useState<number | null>(null);
  const urls = (photos.data ?? []).flatMap((photo) => [
    ...(photo.chatHistoryMessageImage ? [chatImageUrl(chatId, photo.chatHistoryMessageImage, "user")] : []),
    ...(photo.chatHistoryReplyImage ? [chatImageUrl(chatId, photo.chatHistoryReplyImage, "reply")] : []),
  ]);
  return (
    <aside className="photo-list" aria-label={imageTexts.photoList}>
      <div className="photo-list__head">
        <h2 className="chat-sidebar__title">{imageTexts.photoList}</h2>
        <IconButton label={imageTexts.closePhotoList} onClick={onClose}>
          ×
        </IconButton>
      </div>
      {photos.isLoading && (
        <div className="center-block">
          <Spinner label={imageTexts.loadingPhotos} />
        </div>
      )}
      {photos.isSuccess && urls.length === 0 && <p className="chat-sidebar__empty">{imageTexts.noPhotos}</p>}
      <ul className="photo-list__grid">
        {urls.map((url, index) => (
          <li key={url}>
            <button
              type="button"
              aria-label={imageTexts.openPhoto(index + 1)}
              onClick={() => setOpened(index)}
            >
              <img src={url} alt="" loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
      {opened !== null && <PhotoGallery photos={urls} start={opened} onClose={() => setOpened(null)} />}
    </aside>
  );
}
