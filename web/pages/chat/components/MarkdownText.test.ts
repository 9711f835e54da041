import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { beforeAll, describe, expect, it } from "vitest";
import { loadNamespaces } from "../../../i18n";
import { BLOCKS_PER_GROUP, MarkdownText } from "./MarkdownText";

const render = (text: string, streaming = false) =>
  renderToStaticMarkup(createElement(MarkdownText, { text, streaming }));
/** The rendered blocks of a one-block text, without their boxes. */
const inner = (text: string) =>
  render(text).replace(
    /^<div class="bubble__text markdown"><div class="markdown__last">|<\/div><\/div>$/g,
    "",
  );

/** A message's text as Markdown (product.md §2): formatting, and nothing from the text runs or loads. */
describe("MarkdownText", () => {
  // the chat catalogue (the code block's button) is loaded on demand.
  beforeAll(() => loadNamespaces(["chat"]));

  it("shows text between single asterisks in italics, double in bold, and keeps line breaks", () => {
    expect(inner("Hi *waves* **really**\nnext line")).toBe(
      "<p>Hi <em>waves</em> <strong>really</strong><br/>\nnext line</p>",
    );
    expect(inner("5 * 3 = 15")).toBe("<p>5 * 3 = 15</p>");
  });

  it("shows raw HTML as text", () => {
    const html = render('I like <b>tea</b> <img src="x" onerror="alert(1)">\n\n<script>alert(2)</script>');
    expect(html).not.toMatch(/<(b|img|script)[ >]/);
    expect(html).toContain("&lt;b&gt;tea&lt;/b&gt;");
    expect(html).toContain("&lt;img src=&quot;x&quot; onerror=&quot;alert(1)&quot;&gt;");
    expect(html).toContain("&lt;script&gt;alert(2)&lt;/script&gt;");
  });

  it("opens http(s) and mailto links in a new tab without the opener, and shows any other link as text", () => {
    expect(inner("[a](https://example.com/x) [m](mailto:me@example.com)")).toBe(
      '<p><a href="https://example.com/x" target="_blank" rel="noopener noreferrer nofollow">a</a> ' +
        '<a href="mailto:me@example.com" target="_blank" rel="noopener noreferrer nofollow">m</a></p>',
    );
    expect(inner("[x](javascript:alert(1)) [y](/admin) [z](data:text/html,hi)")).toBe(
      "<p><span>x</span> <span>y</span> <span>z</span></p>",
    );
    expect(inner("see www.example.com")).toContain('href="http://www.example.com"');
  });

  it("never loads an image: a link to it named by its description, or the description alone", () => {
    expect(inner("![a cat](https://example.com/cat.png)")).toBe(
      '<p><a href="https://example.com/cat.png" class="markdown__image-link" target="_blank" rel="noopener noreferrer nofollow">a cat</a></p>',
    );
    expect(inner("![tracker](javascript:x)")).toBe("<p><span>tracker</span></p>");
  });

  it("renders a code block whole, blank lines included, with a Copy code button", () => {
    const html = inner("```js\nlet a = 1;\n\nlet b = 2;\n```");
    expect(html).toBe(
      '<div class="markdown__code"><pre><code class="language-js">let a = 1;\n\nlet b = 2;\n</code></pre>' +
        '<button type="button" class="markdown__copy" aria-live="polite">Copy code</button></div>',
    );
    expect(inner("use `npm ci`")).toBe("<p>use <code>npm ci</code></p>");
  });

  it("renders lists, quotes, headings and tables; speech in quotes gets its own style", () => {
    expect(inner("- one\n- two")).toBe("<ul>\n<li>one</li>\n<li>two</li>\n</ul>");
    expect(inner("1. first")).toBe("<ol>\n<li>first</li>\n</ol>");
    expect(inner("> quoted")).toBe("<blockquote>\n<p>quoted</p>\n</blockquote>");
    expect(inner("## Title")).toBe("<h2>Title</h2>");
    expect(inner("| a |\n| - |\n| 1 |")).toContain('<div class="markdown__table"><table>');
    expect(inner('She said "hello" and left.')).toBe(
      '<p>She said <span class="markdown__quote">&quot;hello&quot;</span> and left.</p>',
    );
  });

  it("puts the streaming cursor after the last block", () => {
    expect(render("Hello", true)).toBe(
      '<div class="bubble__text markdown"><div class="markdown__last"><p>Hello</p>' +
        '<span class="bubble__cursor" aria-hidden="true"></span></div></div>',
    );
  });

  it("keeps a reply's blocks in their own box and its last one after it, streaming or finished", () => {
    expect(render("First.\n\nSecond", true)).toBe(
      '<div class="bubble__text markdown"><div class="markdown__blocks"><div class="markdown__group"><p>First.</p></div></div>' +
        '<div class="markdown__last"><p>Second</p><span class="bubble__cursor" aria-hidden="true"></span></div></div>',
    );
    // Finished, the same boxes: the end of a reply takes the cursor away and moves no block.
    expect(render("First.\n\nSecond")).toBe(
      '<div class="bubble__text markdown"><div class="markdown__blocks"><div class="markdown__group"><p>First.</p></div></div>' +
        '<div class="markdown__last"><p>Second</p></div></div>',
    );
  });

  it("puts the finished blocks in groups of BLOCKS_PER_GROUP, in order, so a finishing block joins only the newest", () => {
    const count = BLOCKS_PER_GROUP * 2 + 3;
    const text = Array.from({ length: count }, (_, n) => `Block ${n}.`).join("\n\n");
    const html = render(text, true);
    const groups = [...html.matchAll(/<div class="markdown__group">(.*?)<\/div>/g)].map((match) =>
      [...(match[1] ?? "").matchAll(/<p>Block (\d+)\.<\/p>/g)].map((block) => Number(block[1])),
    );
    // Every block but the last, in order: two full groups and the newest with the rest.
    expect(groups.map((group) => group.length)).toEqual([BLOCKS_PER_GROUP, BLOCKS_PER_GROUP, 2]);
    expect(groups.flat()).toEqual(Array.from({ length: count - 1 }, (_, n) => n));
    expect(html).toContain(`<div class="markdown__last"><p>Block ${count - 1}.</p>`);
  });
});
