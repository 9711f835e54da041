// The preset dialogs (product.md §2, §8): a preset's details popup and the 'Great choice!' confirmation.
import type { PresetCharacter } from "../../../common/api";
import i18n from "../../i18n";
import { contentUrl, FALLBACK_PICTURE_URL } from "../../lib/content";
import { AppSwal, imageWithFallback } from "../../lib/dialogs";
import { firstParagraphs } from "../../lib/text";

/** Whether the preset is male ('1'): the dialogs' buttons say him / her. */
const isMale = (preset: PresetCharacter): boolean => preset.characterSex === "1";

/**
 * The preset popup (product.md §2): title, photo and the first two paragraphs of the description,
 * with 'Select her' / 'Select him' by sex ('0' female). Resolves true when chosen.
 */
export async function showPresetDetails(preset: PresetCharacter): Promise<boolean> {
  const content = document.createElement("div");
  content.className = "preset-popup";
  const image = imageWithFallback(
    contentUrl("predefined-characters", preset.characterPhoto),
    preset.characterName,
    FALLBACK_PICTURE_URL,
  );
  image.className = "preset-popup__photo";
  content.append(image);
  for (const paragraph of firstParagraphs(preset.characterDescription, 2)) {
    const element = document.createElement("p");
    element.textContent = paragraph;
    content.append(element);
  }
  const result = await AppSwal.fire({
    titleText: preset.characterName,
    html: content,
    confirmButtonText: i18n.t(
      isMale(preset) ? "characters:presets.selectHim" : "characters:presets.selectHer",
    ),
    showCloseButton: true,
  });
  return result.isConfirmed;
}

/**
 * The preset confirmation (product.md §8): 'Great choice!', 'Do you want to go with {name}?',
 * 'Yes, create her!' / 'Yes, create him!' (confirm #c70039, cancel #aaa).
 */
export async function confirmPreset(preset: PresetCharacter): Promise<boolean> {
  const result = await AppSwal.fire({
    icon: "question",
    titleText: i18n.t("characters:presets.greatChoice"),
    text: i18n.t("characters:presets.goWith", { name: preset.characterName }),
    showCancelButton: true,
    confirmButtonText: i18n.t(
      isMale(preset) ? "characters:presets.createHim" : "characters:presets.createHer",
    ),
    cancelButtonText: i18n.t("characters:presets.cancel"),
  });
  return result.isConfirmed;
}
