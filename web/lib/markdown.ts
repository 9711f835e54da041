// The rules of message Markdown that are not React: which link targets are allowed, and the chat's own text rule (dialogue).

/** Link targets a message may open: web pages and e-mail addresses only. */
const SAFE_URL = /^(?:https?:\/\/|mailto:)/i;

/**
 * The URL a message's link or image may use: `url` trimmed when it is an absolute http(s) or
 * mailto URL, else undefined (the renderer then shows the link's text without a link). Relative
 * paths, fragments and every other scheme (javascript:, data:, vbscript:, file: ...) are refused:
 * a reply comes from a model and must not reach into the app. Shape of react-markdown's
 * `urlTransform`.
 */
export function safeMessageUrl(url: string): string | undefined {
  const trimmed = url.trim();
  return SAFE_URL.test(trimmed) ? trimmed : undefined;
}

/** The part of an mdast node this module reads (mdast's types are not a dependency of ours). */
interface MdNode {
  type: string;
  value?: string;
  children?: MdNode[];
  data?: { hName?: string; hProperties?: Record<string, unknown> };
}

/** Speech between straight or curly double quotes on one line, quotes included. */
const DIALOGUE = /"[^"\n]+"|“[^”\n]+”/g;

/** `value` as phrasing nodes: dialogue in a span of class markdown__quote. */
function chatPhrasing(value: string): MdNode[] {
  const nodes: MdNode[] = [];
  let at = 0;
  for (const match of value.matchAll(DIALOGUE)) {
    if (match.index > at) nodes.push({ type: "text", value: value.slice(at, match.index) });
    nodes.push({
      type: "emphasis",
      data: { hName: "span", hProperties: { className: ["markdown__quote"] } },
      children: [{ type: "text", value: match[0] }],
    });
    at = match.index + match[0].length;
  }
  if (at < value.length) nodes.push({ type: "text", value: value.slice(at) });
  return nodes;
}

/** Rewrites the text nodes under `node` (code is left alone: its value is not a text node). */
function rewriteText(node: MdNode): void {
  if (node.children === undefined) return;
  node.children = node.children.flatMap((child) => {
    if (child.type === "text" && child.value !== undefined) return chatPhrasing(child.value);
    rewriteText(child);
    return [child];
  });
}

/**
 * A remark plugin for chat text (pass after remark-breaks, which keeps a single line break inside a
 * paragraph as a break, as the chat always showed it: a model writes role-play lines one under
 * another): speech in double quotes gets a span of class `markdown__quote` so it can be told
 * apart from narration, as role-play apps do. Mutates the mdast tree.
 */
export function remarkChatText() {
  return (tree: MdNode) => rewriteText(tree);
}
