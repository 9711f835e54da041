import { describe, expect, it } from "vitest";
import { splitMarkdownBlocks } from "./markdownBlocks";

describe("splitMarkdownBlocks", () => {
  it("splits at blank lines and drops them", () => {
    expect(splitMarkdownBlocks("Hello *waves*\nthere\n\n\n- a\n- b\n\n> quoted")).toEqual([
      "Hello *waves*\nthere",
      "- a\n- b",
      "> quoted",
    ]);
    expect(splitMarkdownBlocks("")).toEqual([]);
    expect(splitMarkdownBlocks("\n \n\t\n")).toEqual([]);
    expect(splitMarkdownBlocks("\n\nonly\n\n")).toEqual(["only"]);
  });

  it("keeps a fenced code block with blank lines inside as one block", () => {
    const code = "```js\nconst a = 1;\n\n\nconsole.log(a);\n```";
    expect(splitMarkdownBlocks(`Before\n\n${code}\n\nAfter`)).toEqual(["Before", code, "After"]);
    const tildes = "~~~~\n```\n\nstill code\n~~~\n\n~~~~";
    expect(splitMarkdownBlocks(`${tildes}\nnext`)).toEqual([`${tildes}\nnext`]);
  });

  it("runs an unclosed fence (a code block still streaming) to the end", () => {
    expect(splitMarkdownBlocks("Look:\n\n```\nline one\n\nline two")).toEqual([
      "Look:",
      "```\nline one\n\nline two",
    ]);
  });

  it("does not take inline code on one line for a fence", () => {
    expect(splitMarkdownBlocks("```inline``` code\n\nnext")).toEqual(["```inline``` code", "next"]);
  });

  it("keeps an indented run after a blank line with the block before it", () => {
    const item = "1. First\n\n   more about the first\n\n       indented code";
    expect(splitMarkdownBlocks(`${item}\n\n2. Second`)).toEqual([item, "2. Second"]);
  });

  it("normalises Windows and old Mac line endings", () => {
    expect(splitMarkdownBlocks("a\r\nb\r\n\r\nc\rd")).toEqual(["a\nb", "c\nd"]);
  });

  it("gives the same blocks for a prefix as the whole text has, except the last", () => {
    const text = "# Title\n\nSome **bold** text.\n\n```\ncode\n\nmore\n```\n\n- one\n- two";
    const whole = splitMarkdownBlocks(text);
    for (let end = 1; end < text.length; end += 1) {
      const prefix = splitMarkdownBlocks(text.slice(0, end));
      expect(prefix.slice(0, -1)).toEqual(whole.slice(0, prefix.length - 1));
    }
  });
});
