// Pictures drawn locally for the seed: character avatars (DiceBear avataaars via sharp), the fallback user.jpg and the pricing cards.
import { loadSharp } from "../media/picture";

/** SVG to JPEG (quality 85) with sharp, loaded on the first picture. */
function svgToJpeg(svg: string): Promise<Buffer> {
  return loadSharp()(Buffer.from(svg)).jpeg({ quality: 85 }).toBuffer();
}

/**
 * Draws a character avatar locally (DiceBear "avataaars", rendered to JPEG by sharp).
 * @param seed stable seed so the same character always gets the same face.
 * @param look hair style, colours (hex without '#') and whether facial hair is allowed.
 * @returns JPEG bytes, 512x512.
 */
export async function renderAvatarJpeg(
  seed: string,
  look: { top: string; background: string; skin: string; hair: string; male: boolean },
): Promise<Buffer> {
  // DiceBear (ES modules only) loads with the first avatar, not at startup.
  const [{ avataaars }, { createAvatar }] = await Promise.all([
    import("@dicebear/collection"),
    import("@dicebear/core"),
  ]);
  const svg = createAvatar(avataaars, {
    seed,
    size: 512,
    // biome-ignore lint/suspicious/noExplicitAny: DiceBear types the option enums as string literal unions
    top: [look.top as any],
    backgroundColor: [look.background],
    // biome-ignore lint/suspicious/noExplicitAny: see above
    skinColor: [look.skin as any],
    hairColor: [look.hair],
    facialHairProbability: look.male ? 40 : 0,
    accessoriesProbability: 0,
    // biome-ignore lint/suspicious/noExplicitAny: see above
    mouth: ["smile", "twinkle", "default"] as any,
    // biome-ignore lint/suspicious/noExplicitAny: see above
    eyebrows: ["default", "defaultNatural", "raisedExcited"] as any,
    // biome-ignore lint/suspicious/noExplicitAny: see above
    eyes: ["default", "happy", "wink"] as any,
  }).toString();
  return svgToJpeg(svg);
}

/** The fallback picture user.jpg (product.md §3): a neutral silhouette-like avatar. */
export async function renderDefaultPictureJpeg(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="256" height="256" viewBox="0 0 256 256">
<rect width="256" height="256" fill="#d9dde3"/><circle cx="128" cy="100" r="48" fill="#9aa3ae"/>
<path d="M40 236c8-52 46-80 88-80s80 28 88 80z" fill="#9aa3ae"/></svg>`;
  return svgToJpeg(svg);
}

const PLAN_COLOURS = [
  ["#5b5f97", "#b8b8d1"],
  ["#c70039", "#ff8d72"],
  ["#6a0dad", "#e26ee5"],
  ["#0f4c75", "#3fc1c9"],
];

/** A pricing card image (product.md §3: pricingImage under the pricing content area): a gradient with the plan's name. */
export async function renderPlanImageJpeg(name: string, index: number): Promise<Buffer> {
  const [from, to] = PLAN_COLOURS[index % PLAN_COLOURS.length]!;
  const safe = name.replace(/[<>&"']/g, "");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="600" height="340" viewBox="0 0 600 340">
<defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>
<rect width="600" height="340" fill="url(#g)"/><circle cx="500" cy="70" r="110" fill="#ffffff" opacity="0.12"/>
<circle cx="90" cy="300" r="140" fill="#ffffff" opacity="0.08"/>
<text x="300" y="190" font-family="DejaVu Sans, sans-serif" font-size="46" font-weight="bold" fill="#ffffff" text-anchor="middle">${safe}</text></svg>`;
  return svgToJpeg(svg);
}
