// Draws the installable app's icons (web/public/icons/*.png) from the brand mark (BrandMark.tsx).
// Usage: node scripts/make-icons.mjs   writes the PNGs; run again only when the brand mark changes.
import { mkdirSync } from "node:fs";
import path from "node:path";
import sharp from "sharp";

const outDir = path.resolve(import.meta.dirname, "../web/public/icons");

/** The app's dark surface (web/styles/base.css, the theme colour in web/index.html). */
const BACKGROUND = "#14111c";

/** BrandMark.tsx's speech bubble with a heart, on a 32-unit square, gradient pink to violet. */
const MARK = `
  <defs>
    <linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#ff5c8a"/>
      <stop offset="1" stop-color="#8b5cf6"/>
    </linearGradient>
  </defs>
  <path d="M16 3C8.8 3 3 8.2 3 14.6c0 3.6 1.9 6.9 4.9 9L7 29l5.6-3.1c1.1.3 2.2.4 3.4.4 7.2 0 13-5.2 13-11.7S23.2 3 16 3z" fill="url(#g)"/>
  <path d="M16 20.5s-5-3-5-6.4c0-1.7 1.3-3 2.9-3 1 0 1.7.5 2.1 1.2.4-.7 1.2-1.2 2.1-1.2 1.6 0 2.9 1.3 2.9 3 0 3.4-5 6.4-5 6.4z" fill="#fff"/>`;

/**
 * An SVG of `size` px: the mark scaled to `markShare` of the side, centred, over a dark square
 * with corners of `radius` (share of the side; 0 = full bleed) or over nothing when `radius` is null.
 */
function iconSvg(size, markShare, radius) {
  const mark = size * markShare;
  const offset = (size - mark) / 2;
  const ground =
    radius === null
      ? ""
      : `<rect width="${size}" height="${size}" rx="${size * radius}" fill="${BACKGROUND}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${size} ${size}">
  ${ground}
  <g transform="translate(${offset} ${offset}) scale(${mark / 32})">${MARK}</g>
</svg>`;
}

/** File name, side in px, mark share and corner radius (null: transparent ground). */
const ICONS = [
  // "any" icons: a rounded dark tile, so the mark reads on light and dark launchers alike.
  ["icon-192.png", 192, 0.72, 0.22],
  ["icon-512.png", 512, 0.72, 0.22],
  // Maskable: full-bleed ground, the mark inside the central 80 % safe circle.
  ["icon-maskable-512.png", 512, 0.56, 0],
  // iOS rounds the corners itself and shows transparency as black.
  ["apple-touch-icon.png", 180, 0.7, 0],
  ["favicon-32.png", 32, 1, null],
];

mkdirSync(outDir, { recursive: true });
for (const [name, size, share, radius] of ICONS) {
  await sharp(Buffer.from(iconSvg(size, share, radius)))
    .png({ compressionLevel: 9 })
    .toFile(path.join(outDir, name));
  console.log(`wrote web/public/icons/${name}`);
}
