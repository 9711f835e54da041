// Text made safe to put inside a regular expression.

/** `text` with every regular-expression metacharacter escaped, to be matched literally. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
