import { afterEach, describe, expect, it, vi } from "vitest";
import { copyText } from "./clipboard";

/**
 * The one copy helper of the app: the Clipboard API where the page has it, else the copy command on
 * the shown text (plain http from another machine), and a plain `false` (never a throw) when both
 * fail, with the text left selected for the visitor to copy by hand. The browser's objects are
 * small fakes (the unit tests run in Node).
 */

/** A read-only field showing the text, as CopyableText renders it. */
class FakeInput {
  value: string;
  selected = false;
  focused = false;
  constructor(value: string) {
    this.value = value;
  }
  focus() {
    this.focused = true;
  }
  select() {
    this.selected = true;
  }
  setSelectionRange() {
    this.selected = true;
  }
}

/** Stubs the page: `clipboard` (undefined: not a secure context) and the copy command's answer. */
function page(clipboard: { writeText: (text: string) => Promise<void> } | undefined, command: () => boolean) {
  const execCommand = vi.fn(command);
  const scratch: FakeInput[] = [];
  vi.stubGlobal("HTMLInputElement", FakeInput);
  vi.stubGlobal("HTMLTextAreaElement", FakeInput);
  vi.stubGlobal("navigator", clipboard === undefined ? {} : { clipboard });
  vi.stubGlobal("window", { getSelection: () => ({ removeAllRanges: () => {}, addRange: () => {} }) });
  vi.stubGlobal("document", {
    execCommand,
    createElement: () => {
      const field = Object.assign(new FakeInput(""), {
        readOnly: false,
        style: {},
        setAttribute: () => {},
        remove: vi.fn(),
      });
      scratch.push(field);
      return field;
    },
    body: { append: () => {} },
  });
  return { execCommand, scratch };
}

describe("copyText", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("uses the Clipboard API where the page has it", async () => {
    const writeText = vi.fn(async () => {});
    const { execCommand } = page({ writeText }, () => true);
    expect(await copyText("https://box/signup?invite=abc")).toBe(true);
    expect(writeText).toHaveBeenCalledWith("https://box/signup?invite=abc");
    expect(execCommand).not.toHaveBeenCalled();
  });

  it("without the Clipboard API (plain http), selects the shown text and runs the copy command", async () => {
    const { execCommand } = page(undefined, () => true);
    const field = new FakeInput("s3cret-Pass");
    expect(await copyText("s3cret-Pass", field as unknown as HTMLElement)).toBe(true);
    expect(execCommand).toHaveBeenCalledWith("copy");
    expect(field).toMatchObject({ focused: true, selected: true });
  });

  it("falls back to the copy command when the Clipboard API refuses", async () => {
    const writeText = vi.fn(async () => {
      throw new Error("NotAllowedError");
    });
    const { execCommand } = page({ writeText }, () => true);
    expect(await copyText("abc", new FakeInput("abc") as unknown as HTMLElement)).toBe(true);
    expect(execCommand).toHaveBeenCalledWith("copy");
  });

  it("answers false, never throws, and leaves the text selected when the copy command fails or throws", async () => {
    page(undefined, () => false);
    const field = new FakeInput("abc");
    expect(await copyText("abc", field as unknown as HTMLElement)).toBe(false);
    expect(field.selected).toBe(true);
    page(undefined, () => {
      throw new Error("not supported");
    });
    await expect(copyText("abc", new FakeInput("abc") as unknown as HTMLElement)).resolves.toBe(false);
  });

  it("without a shown text, copies from a scratch field that is removed afterwards", async () => {
    const { scratch } = page(undefined, () => true);
    expect(await copyText("xyz")).toBe(true);
    expect(scratch).toHaveLength(1);
    expect(scratch[0]?.value).toBe("xyz");
    expect((scratch[0] as unknown as { remove: () => void }).remove).toHaveBeenCalled();
  });
});
