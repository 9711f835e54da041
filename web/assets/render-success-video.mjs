// Renders web/assets/login-success.webm, the login screen's success animation (product.md §2:
// "On success a success video replaces the image"). Frames are drawn as SVG, rasterised with
// sharp and encoded by ffmpeg (VP9, no audio). Run: node web/assets/render-success-video.mjs
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import sharp from "sharp";

const SIZE = 240;
const FPS = 24;
const FRAMES = 40; // 1.67 s
const BACKGROUND = "#1a1724";
const OUTPUT = path.join(import.meta.dirname, "login-success.webm");

const clamp = (value) => Math.min(1, Math.max(0, value));
const easeOut = (t) => 1 - (1 - t) ** 3;
const easeOutBack = (t) => 1 + 2.7 * (t - 1) ** 3 + 1.7 * (t - 1) ** 2;

function heart(cx, cy, size, opacity, color) {
  const s = size / 24;
  return `<path transform="translate(${cx - 12 * s} ${cy - 12 * s}) scale(${s})" fill="${color}" opacity="${opacity}"
    d="M12 21s-8-4.9-8-11a4.5 4.5 0 0 1 8-2.8A4.5 4.5 0 0 1 20 10c0 6.1-8 11-8 11z"/>`;
}

function frame(index) {
  const t = index / (FRAMES - 1);
  const c = SIZE / 2;
  const circle = easeOutBack(clamp(t / 0.35));
  const check = easeOut(clamp((t - 0.3) / 0.3));
  const burst = clamp((t - 0.45) / 0.55);
  const ringRadius = 70 + 40 * easeOut(clamp((t - 0.2) / 0.5));
  const ringOpacity = 0.6 * (1 - clamp((t - 0.2) / 0.5));
  const checkLength = 110;
  const hearts = Array.from({ length: 8 }, (_unused, i) => {
    const angle = (i / 8) * Math.PI * 2 - Math.PI / 2;
    const distance = 60 + 45 * easeOut(burst);
    const color = i % 2 === 0 ? "#ff4f81" : "#c13cff";
    return heart(
      c + Math.cos(angle) * distance,
      c + Math.sin(angle) * distance,
      16,
      burst > 0 ? 1 - burst * 0.7 : 0,
      color,
    );
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#ff4f81"/><stop offset="0.55" stop-color="#c13cff"/><stop offset="1" stop-color="#8b5cf6"/>
    </linearGradient></defs>
    <rect width="100%" height="100%" fill="${BACKGROUND}"/>
    <circle cx="${c}" cy="${c}" r="${ringRadius}" fill="none" stroke="#c13cff" stroke-width="4" opacity="${ringOpacity}"/>
    <circle cx="${c}" cy="${c}" r="${62 * circle}" fill="url(#g)"/>
    <path d="M${c - 30} ${c + 2} l20 20 l40 -42" fill="none" stroke="#fff" stroke-width="12" stroke-linecap="round"
      stroke-linejoin="round" stroke-dasharray="${checkLength}" stroke-dashoffset="${checkLength * (1 - check)}"
      opacity="${check > 0 ? 1 : 0}"/>
    ${hearts}
  </svg>`;
}

const dir = mkdtempSync(path.join(tmpdir(), "success-video-"));
try {
  for (let i = 0; i < FRAMES; i += 1) {
    await sharp(Buffer.from(frame(i)))
      .png()
      .toFile(path.join(dir, `f${String(i).padStart(3, "0")}.png`));
  }
  execFileSync(
    "ffmpeg",
    [
      "-y",
      "-loglevel",
      "error",
      "-framerate",
      String(FPS),
      "-i",
      path.join(dir, "f%03d.png"),
      "-c:v",
      "libvpx-vp9",
      "-b:v",
      "0",
      "-crf",
      "38",
      "-pix_fmt",
      "yuv420p",
      "-an",
      OUTPUT,
    ],
    { stdio: "inherit" },
  );
  console.log(`wrote ${OUTPUT}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
