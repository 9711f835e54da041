// Copying text to the clipboard anywhere the app runs, plain http from another machine included.

/**
 * Selects the text of `element` so the copy command (or the visitor's own Ctrl+C) takes it: an
 * input's or text area's whole value, else the element's contents.
 */
export function selectText(element: HTMLElement): void {
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement) {
    element.focus();
    element.select();
    // iOS Safari selects nothing with select() alone on a read-only field.
    element.setSelectionRange(0, element.value.length);
    return;
  }
  const selection = window.getSelection();
  if (selection === null) return;
  const range = document.createRange();
  range.selectNodeContents(element);
  selection.removeAllRanges();
  selection.addRange(range);
}

/** Whether `element` is a form field, whose selection lives in the field and not in the page's. */
function isField(element: HTMLElement): boolean {
  return element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement;
}

/**
 * The copy command on a selection: `source`'s text when given (left selected when the command
 * fails, so the visitor can copy it by hand), else a scratch text area out of sight.
 */
function copyBySelection(text: string, source: HTMLElement | null): boolean {
  let scratch: HTMLTextAreaElement | null = null;
  let target = source;
  if (target === null) {
    scratch = document.createElement("textarea");
    scratch.value = text;
    scratch.readOnly = true;
    scratch.setAttribute("aria-hidden", "true");
    scratch.style.position = "fixed";
    scratch.style.top = "0";
    scratch.style.left = "0";
    scratch.style.opacity = "0";
    document.body.append(scratch);
    target = scratch;
  }
  try {
    selectText(target);
    const copied = document.execCommand("copy");
    if (copied && !isField(target)) window.getSelection()?.removeAllRanges();
    return copied;
  } catch {
    return false;
  } finally {
    scratch?.remove();
  }
}

/**
 * Puts `text` on the clipboard and tells whether it got there; never throws. Tries the Clipboard
 * API where the page has it (a secure context: https or localhost), else, or when it refuses,
 * selects `source` (the element that shows the text; without one, a scratch field) and runs the
 * copy command. On `false` the text stays selected in `source`: say so ("Select the text and copy
 * it") and let the visitor copy it by hand.
 */
export async function copyText(text: string, source: HTMLElement | null = null): Promise<boolean> {
  const clipboard = typeof navigator === "undefined" ? undefined : navigator.clipboard;
  if (typeof clipboard?.writeText === "function") {
    try {
      await clipboard.writeText(text);
      return true;
    } catch {
      // refused (no permission, the page not focused): the copy command may still work.
    }
  }
  return copyBySelection(text, source);
}
