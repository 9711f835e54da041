// Warming the fonts of the message bubbles before a chat's first page shows.
import { nextTask } from "../../lib/nextTask";

/** A message of `side` holding `inner` (MessageBubble's classes). */
const bubble = (side: "user" | "reply", inner: string) =>
  `<article class="message message--${side}"><div class="bubble bubble--${side}">${inner}</div></article>`;
/** Formatted text inside a reply (MarkdownText's classes). */
const formatted = (markup: string) => bubble("reply", `<div class="bubble__text markdown">${markup}</div>`);

/**
 * One sample of each text style a message bubble can use, each laid out in a task of its own: the
 * bubbles' own lines (text, name, time, actions), then the formatted text's (bold, italics,
 * quotes, code, headings, block quotes, code blocks with their copy button, tables). Class names
 * as the bubbles render them (MessageBubble, MarkdownText; sizes and weights in chat.css and
 * markdown.css).
 */
const SAMPLES = [
  bubble("user", `<div class="bubble__text markdown"><p>Aa</p></div>`),
  bubble("reply", `<span class="bubble__name">Aa</span>`),
  bubble("reply", `<div class="bubble__meta"><time>12:00</time></div>`),
  bubble("reply", `<div class="bubble__meta"><button type="button" class="bubble__action">Aa</button></div>`),
  formatted("<p><strong>Aa</strong></p>"),
  formatted("<p><em>Aa</em></p>"),
  formatted(`<p><span class="markdown__quote">"Aa"</span></p>`),
  formatted("<p><code>Aa</code></p>"),
  formatted("<h1>Aa</h1>"),
  formatted("<h2>Aa</h2>"),
  formatted("<blockquote><p>Aa</p></blockquote>"),
  formatted(
    `<div class="markdown__code"><pre><code>Aa</code></pre><button type="button" class="markdown__copy">Aa</button></div>`,
  ),
  formatted(
    `<div class="markdown__table"><table><thead><tr><th>Aa</th></tr></thead><tbody><tr><td>Aa</td></tr></tbody></table></div>`,
  ),
];

let warmed = false;

/**
 * Lays out, hidden and off screen, one sample of each text style of a message bubble, so the
 * browser has loaded their fonts before a chat's first page of history shows; then removes it.
 * The first layout that meets a font (its family, weight, style and size) loads it: at a phone's
 * speed (CPU 4x) the first page's first bubbles took 75 ms of layout where as many bubbles took
 * 15 ms a frame later (docs/benchmarks.md, "Opening a long chat: the first page in stages").
 * Each sample is laid out in a task of its own (a font's first use, 10-20 ms at 4x); runs once a page load, and
 * is called when the page is idle (the chat list, once it has fetched the chat's code; a chat
 * opened directly, while its history loads). Needs the chat's style sheets (this module's chunk).
 */
export async function warmTextStyles(): Promise<void> {
  if (warmed || typeof document === "undefined") return;
  warmed = true;
  const box = document.createElement("div");
  box.className = "message-list";
  box.setAttribute("aria-hidden", "true");
  box.style.cssText =
    "position:fixed;left:-10000px;top:0;width:320px;height:auto;visibility:hidden;pointer-events:none";
  document.body.append(box);
  try {
    for (const sample of SAMPLES) {
      box.insertAdjacentHTML("beforeend", sample);
      // Reading a size lays the sample out now, in this task.
      void box.offsetHeight;
      await nextTask();
    }
  } finally {
    box.remove();
  }
}
