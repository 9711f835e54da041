// A chat message's text as Markdown: split into blocks, each rendered once and kept while a reply streams.
import { type ComponentProps, memo, type ReactNode, useDeferredValue, useMemo } from "react";
import Markdown, { type Components, type ExtraProps } from "react-markdown";
import remarkBreaks from "remark-breaks";
import remarkGfm from "remark-gfm";
import { remarkChatText, safeMessageUrl } from "../../../lib/markdown";
import { splitMarkdownBlocks } from "../../../lib/markdownBlocks";
import { MarkdownCode } from "./MarkdownCode";
import "./markdown.css";

/** Attributes of every link a message shows: a new tab with no access back to the app, no referrer, no endorsement. */
const LINK_ATTRIBUTES = { target: "_blank", rel: "noopener noreferrer nofollow" } as const;

/** A link: opens in a new tab when its URL is allowed (see `safeMessageUrl`), else its text alone. */
function MessageLink({ href, children }: ComponentProps<"a"> & ExtraProps) {
  if (!href) return <span>{children}</span>;
  return (
    <a href={href} {...LINK_ATTRIBUTES}>
      {children}
    </a>
  );
}

/**
 * An image is never loaded (the Content-Security-Policy allows our own images only, and a reply
 * must not make the browser fetch from elsewhere): it is a link to the picture, named by its
 * description, or the description alone when the URL is not allowed.
 */
function MessageImage({ src, alt }: ComponentProps<"img"> & ExtraProps) {
  const label = alt || (typeof src === "string" ? src : "");
  if (typeof src !== "string" || !src) return <span>{label}</span>;
  return (
    <a href={src} className="markdown__image-link" {...LINK_ATTRIBUTES}>
      {label}
    </a>
  );
}

/** A table scrolls sideways inside the bubble instead of widening it. */
function MessageTable({ children }: ComponentProps<"table"> & ExtraProps) {
  return (
    <div className="markdown__table">
      <table>{children}</table>
    </div>
  );
}

const COMPONENTS: Components = { a: MessageLink, img: MessageImage, pre: MarkdownCode, table: MessageTable };
const REMARK_PLUGINS = [remarkGfm, remarkBreaks, remarkChatText];
const urlTransform = (url: string) => safeMessageUrl(url);

/** How many rendered blocks are kept for reuse (a long reply has a few hundred). */
const CACHED_BLOCKS = 1000;
/** Rendered blocks by their text, oldest first (a Map keeps insertion order): an LRU cache. */
const rendered = new Map<string, ReactNode>();

/**
 * The React elements of one Markdown block, parsed once per text and kept when `keep` (not the
 * growing last block of a streaming reply, whose every prefix would crowd the cache out): a
 * bubble that mounts again (the history reloaded after a reply, a chat opened again) reuses them
 * instead of parsing the reply again. `Markdown` is react-markdown's synchronous renderer, a pure function of its options
 * (no hooks), so its output can be kept. Raw HTML in the text is shown as text (react-markdown
 * turns raw nodes into text unless a raw-HTML plugin is added, which this app never does); URLs go
 * through `safeMessageUrl`.
 */
function renderBlock(text: string, keep: boolean): ReactNode {
  const cached = rendered.get(text);
  if (cached !== undefined) {
    rendered.delete(text);
    rendered.set(text, cached);
    return cached;
  }
  const elements = Markdown({
    children: text,
    remarkPlugins: REMARK_PLUGINS,
    components: COMPONENTS,
    urlTransform,
  });
  if (!keep) return elements;
  rendered.set(text, elements);
  if (rendered.size > CACHED_BLOCKS) rendered.delete(rendered.keys().next().value as string);
  return elements;
}

/** One Markdown block of a message (see `splitMarkdownBlocks`), rendered again only when its text changes. */
const MarkdownBlock = memo(function MarkdownBlock({ text, keep }: { text: string; keep: boolean }) {
  return renderBlock(text, keep);
});

/**
 * How many finished blocks share one box (`markdown__group`, markdown.css). A block that finishes
 * while a reply streams joins the newest group, so the browser lays out and paints that group
 * again, not every block before it (the benchmark's 2 000-token reply has about 110 blocks).
 */
export const BLOCKS_PER_GROUP = 8;

/**
 * The finished blocks `blocks` in groups of `BLOCKS_PER_GROUP`, each group in a box of its own. A
 * full group never changes (blocks only grow at the end), and its blocks are memoised by text, so
 * React leaves its DOM alone.
 */
function BlockGroups({ blocks }: { blocks: string[] }) {
  const groups: string[][] = [];
  for (let start = 0; start < blocks.length; start += BLOCKS_PER_GROUP)
    groups.push(blocks.slice(start, start + BLOCKS_PER_GROUP));
  return groups.map((group, groupIndex) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: groups only grow at the end while a reply streams
    <div key={groupIndex} className="markdown__group">
      {group.map((block, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: blocks only grow at the end while a reply streams
        <MarkdownBlock key={index} text={block} keep />
      ))}
    </div>
  ));
}

/**
 * A message's text as formatted Markdown (product.md §2): bold, italics (single asterisks, the
 * role-play actions), lists, links, code, quotes, headings and tables; speech in quotes styled.
 * The text is split into blocks so a streaming reply re-parses only its last, growing block; the
 * blocks before the last keep their rendering, in a box of their own (`markdown__blocks`) that the
 * page contains (markdown.css), so the browser neither lays them out nor paints them again on each
 * token; inside it they sit in groups (`BlockGroups`), so a block that finishes costs the browser
 * its group, not the whole reply. The last block has a box of its own (`markdown__last`), with the cursor after it while the
 * reply streams, so that the rules which place the cursor touch no other block. A finished message
 * has the same two boxes, so the end of a reply changes the last box alone (its cursor goes): no
 * block moves and no rule about the other blocks changes whether it applies. A new text renders as
 * a deferred (interruptible) update, so the page stays responsive while tokens arrive.
 * `streaming` puts the cursor after the text.
 */
export const MarkdownText = memo(function MarkdownText({
  text,
  streaming = false,
}: {
  text: string;
  streaming?: boolean;
}) {
  const shown = useDeferredValue(text);
  const blocks = useMemo(() => splitMarkdownBlocks(shown), [shown]);
  const finished = Math.max(0, blocks.length - 1);
  const last = blocks[finished];
  return (
    <div className="bubble__text markdown">
      {finished > 0 && (
        <div className="markdown__blocks">
          <BlockGroups blocks={blocks.slice(0, finished)} />
        </div>
      )}
      {(last !== undefined || streaming) && (
        <div className="markdown__last">
          {/* While the reply streams the last block is still growing: its every prefix is not kept. */}
          {last !== undefined && <MarkdownBlock text={last} keep={!streaming} />}
          {streaming && <span className="bubble__cursor" aria-hidden="true" />}
        </div>
      )}
    </div>
  );
});
